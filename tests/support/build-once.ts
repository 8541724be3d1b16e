import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../tools/harness/paths.ts';
import { SYNTHETIC_ROUTES_RECORD } from '../../vite.config.ts';

/**
 * What `npm run build` reads: the sources of its three builds (vite.config.ts and its plugins in vite/, cli/vite.config.ts),
 * the scripts and compiler settings, and the installed packages (npm rewrites
 * node_modules/.package-lock.json on every install, here and in a linked node_modules).
 */
const BUILD_INPUTS = [
  'client',
  'server',
  'shared',
  'cli',
  'public',
  'vite.config.ts',
  'vite',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'node_modules/.package-lock.json',
];
/** What the tests run (as tools/ensure-build.js checks): a build missing one is no build. */
const BUILD_OUTPUTS = ['dist/server/index.js', 'dist/client/.vite/manifest.json', 'dist/cli/digest.js'];
/** Written by the last test run that built, with the time that build started. */
const STAMP = 'dist/.built-for-tests';

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  // A folder's own time changes when a file in it is removed or renamed.
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** Whether dist/ holds a benchmark's build with synthetic routes (vite.config.ts records it). */
function synthetic(): boolean {
  const record = join(ROOT, 'dist/client', SYNTHETIC_ROUTES_RECORD);
  return existsSync(record) && (JSON.parse(readFileSync(record, 'utf8')) as { syntheticRoutes: number }).syntheticRoutes !== 0;
}

/**
 * Builds the app unless the last test run's build is newer than everything it was made from:
 * the build is about 5 s of a run in which nothing else can start, and most runs change no
 * source (one test file, or the suite again). Delete dist/ to force a build.
 */
export function buildOnce(): void {
  const stamp = join(ROOT, STAMP);
  const inputs = BUILD_INPUTS.map((path) => join(ROOT, path)).filter((path) => existsSync(path));
  const complete = [stamp, ...BUILD_OUTPUTS.map((path) => join(ROOT, path))].every((path) => existsSync(path));
  if (complete && !synthetic() && statSync(stamp).mtimeMs > Math.max(...inputs.map(newestMtime))) return;
  // The start time, not the end: a source saved while the build runs is newer than the stamp.
  const startedAt = new Date();
  // The demo's route table, whatever the shell exports: tests never run a benchmark's build.
  const env = { ...process.env, SYNTHETIC_ROUTES: '' };
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  writeFileSync(stamp, '');
  utimesSync(stamp, startedAt, startedAt);
}
