// `npm start` builds first when the build is missing or older than any source it is made from.
// Building needs the dev dependencies (vite); where only production ones are installed (an
// image, `npm ci --omit=dev`), a missing build is one clear line and exit 1, never a crash
// deep inside a missing package. The bench builds its own app the same way (tools/bench/bench-app.ts
// calls ensureBuilt). This file imports nothing of the project's: an image runs it alone.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What `npm start` runs: the host's process, React Router's server build of the app, the digest tool. */
const BUILD_OUTPUTS = ['dist/server/index.js', 'dist/server/react-router.js', 'dist/cli/digest.js'];
/** What `npm run build` reads; a folder named `build` is some app's output, never a source. */
export const SOURCES = [
  'client',
  'server',
  'shared',
  'cli',
  'public',
  'vite.config.ts',
  'react-router.config.ts',
  'vite',
  'package-lock.json',
];

/** The newest modification time under `path`, leaving out build output folders. */
export function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  const names = readdirSync(path).filter((name) => name !== 'build');
  return Math.max(stat.mtimeMs, ...names.map((name) => newestMtime(join(path, name))));
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
 * Runs `build` when one of `outputs` is missing or older than the newest of `sources` (paths
 * relative to the working directory). Returns whether it built.
 * @param {{ what: string, outputs: string[], sources: string[], build: () => void }} job
 */
export function ensureBuilt({ what, outputs, sources, build }) {
  const builtAt = Math.min(...outputs.map((path) => (existsSync(path) ? statSync(path).mtimeMs : 0)));
  const changedAt = Math.max(...sources.filter((path) => existsSync(path)).map(newestMtime));
  if (builtAt >= changedAt) return false;
  if (!canBuild()) {
    if (builtAt === 0) {
      console.error(`No build in ${what} and no dev dependencies to make one: run \`npm ci && npm run build\` first (or use the image)`);
      process.exit(1);
    }
    // An existing build is still a working server: say it is stale, and serve it.
    console.error(`Sources changed since the last build of ${what}, but vite is not installed to rebuild: serving the existing build`);
    return false;
  }
  console.log(`${builtAt === 0 ? `No build in ${what}: building` : `Sources changed since the last build of ${what}: rebuilding`}…`);
  build();
  return true;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  ensureBuilt({
    what: 'dist/',
    outputs: BUILD_OUTPUTS,
    sources: SOURCES,
    build: () => execFileSync('npm', ['run', 'build'], { stdio: 'inherit' }),
  });
}
