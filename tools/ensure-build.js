// `npm start` builds first when the build is missing or older than any source it is made from.
// Building needs the dev dependencies (vite); where only production ones are installed (an
// image, `npm ci --omit=dev`), a missing build is one clear line and exit 1, never a crash
// deep inside a missing package.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const BUILD_OUTPUTS = ['dist/server/index.js', 'dist/client/.vite/manifest.json', 'dist/cli/digest.js'];
const SOURCES = ['client', 'server', 'shared', 'cli', 'public', 'vite.config.ts', 'package-lock.json'];

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

const builtAt = Math.min(...BUILD_OUTPUTS.map((path) => (existsSync(path) ? statSync(path).mtimeMs : 0)));
const changedAt = Math.max(...SOURCES.filter((path) => existsSync(path)).map(newestMtime));
if (builtAt < changedAt) {
  if (!canBuild()) {
    if (builtAt === 0) {
      console.error('No build in dist/ and no dev dependencies to make one: run `npm ci && npm run build` first (or use the image)');
      process.exit(1);
    }
    // An existing build is still a working server: say it is stale, and serve it.
    console.error('Sources changed since the last build, but vite is not installed to rebuild: serving the existing build');
  } else {
    console.log(builtAt === 0 ? 'No build found: building…' : 'Sources changed since the last build: rebuilding…');
    execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
  }
}
