// `npm start` builds first when the build is missing or older than any source it is made from.
// Building needs the dev dependencies (vite); where only production ones are installed (an
// image, `npm ci --omit=dev`), a missing build is one clear line and exit 1, never a crash
// deep inside a missing package.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// React Router's build leaves no Vite manifest in dist/client (it removes the one it reads), so
// the app's server build stands for it: a file the build never keeps made every start rebuild.
const BUILD_OUTPUTS = ['dist/server/index.js', 'dist/server/react-router.js', 'dist/cli/digest.js'];
/** vite.config.ts's SYNTHETIC_ROUTES_RECORD, in the client build. */
const SYNTHETIC_RECORD = 'dist/client/.vite/synthetic-routes.json';
const SOURCES = ['client', 'server', 'shared', 'cli', 'public', 'vite.config.ts', 'vite', 'package-lock.json'];

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

function canBuild() {
  try {
    import.meta.resolve('vite');
    return true;
  } catch {
    return false;
  }
}

/**
 * A benchmark build (`SYNTHETIC_ROUTES=<n> npm run build`, vite.config.ts) records its count:
 * one whose count is not what this environment asks for (0 when unset) is rebuilt, so a
 * synthetic build is never served by accident.
 */
function syntheticMismatch() {
  let built = 0;
  try {
    built = JSON.parse(readFileSync(SYNTHETIC_RECORD, 'utf8')).syntheticRoutes;
  } catch {
    // No record: a build from before the record existed, which had none.
  }
  const wanted = Number(process.env.SYNTHETIC_ROUTES || 0);
  return built === wanted ? undefined : `The build has ${built} synthetic routes and SYNTHETIC_ROUTES asks for ${wanted}`;
}

const builtAt = Math.min(...BUILD_OUTPUTS.map((path) => (existsSync(path) ? statSync(path).mtimeMs : 0)));
const changedAt = Math.max(...SOURCES.filter((path) => existsSync(path)).map(newestMtime));
const mismatch = builtAt === 0 ? undefined : syntheticMismatch();
if (builtAt < changedAt || mismatch !== undefined) {
  if (!canBuild()) {
    if (builtAt === 0) {
      console.error('No build in dist/ and no dev dependencies to make one: run `npm ci && npm run build` first (or use the image)');
      process.exit(1);
    }
    // An existing build is still a working server: say it is stale, and serve it.
    console.error(
      `${mismatch ?? 'Sources changed since the last build'}, but vite is not installed to rebuild: serving the existing build`,
    );
  } else {
    const why = builtAt === 0 ? 'No build found' : (mismatch ?? 'Sources changed since the last build');
    console.log(`${why}: ${builtAt === 0 ? 'building' : 'rebuilding'}…`);
    execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
  }
}
