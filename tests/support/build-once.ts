import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from '../../tools/harness/paths.ts';

/**
 * What `npm run build` reads: the sources of its builds (vite.config.ts and its plugins in vite/,
 * react-router.config.ts, cli/vite.config.ts), the scripts and compiler settings, and the
 * installed packages (npm rewrites node_modules/.package-lock.json on every install, here and in
 * a linked node_modules). The tests' apps (tests/apps/) are built by the same host code.
 */
const BUILD_INPUTS = [
  'client',
  'server',
  'shared',
  'cli',
  'public',
  'tests/apps',
  'vite.config.ts',
  'react-router.config.ts',
  'vite',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'node_modules/.package-lock.json',
];
/** The tests' own apps (tests/README.md): each a React Router app built into its build/ folder. */
export const TEST_APPS_DIR = join(ROOT, 'tests/apps');
/** A test app's build, as APP_BUILD names it. */
export const testAppBuild = (name: string): string => join(TEST_APPS_DIR, name, 'build');
/** What the tests run (as tools/ensure-build.js checks): a build missing one is no build. React Router's build keeps no Vite manifest in dist/client. */
const BUILD_OUTPUTS = ['dist/server/index.js', 'dist/server/react-router.js', 'dist/cli/digest.js'];
/** Written by the last test run that built, with the time that build started. */
const STAMP = 'dist/.built-for-tests';

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  // A test app's own build and its generated route types (typegen) are output, not input.
  const names = readdirSync(path).filter((name) => !((name === 'build' || name === '.react-router') && dirname(path) === TEST_APPS_DIR));
  // A folder's own time changes when a file in it is removed or renamed; a test app's own folder's
  // also when its build replaces build/ in it, after the stamp's time: it would rebuild every run.
  const own = dirname(path) === TEST_APPS_DIR ? 0 : stat.mtimeMs;
  return Math.max(own, ...names.map((name) => newestMtime(join(path, name))));
}

const testApps = () => readdirSync(TEST_APPS_DIR).filter((name) => existsSync(join(TEST_APPS_DIR, name, 'react-router.config.ts')));

/**
 * A test app, built as `npm run build` builds the demo: React Router's build with the host's Vite
 * plugins (its vite.config.ts), then the host's prerender step over it (server/prerender.ts, APP_BUILD).
 */
function buildTestApp(name: string, env: NodeJS.ProcessEnv): void {
  const cwd = join(TEST_APPS_DIR, name);
  const stdio: ['ignore', 'ignore', 'inherit'] = ['ignore', 'ignore', 'inherit'];
  execFileSync(process.execPath, [join(ROOT, 'node_modules/@react-router/dev/bin.cjs'), 'build'], { cwd, env, stdio });
  execFileSync(process.execPath, [join(ROOT, 'dist/server/prerender.js')], { cwd, env: { ...env, APP_BUILD: testAppBuild(name) }, stdio });
}

/**
 * Builds the demo and the tests' apps unless the last test run's build is newer than everything
 * they were made from: the builds are about 10 s of a run in which nothing else can start, and most
 * runs change no source (one test file, or the suite again). Delete dist/ to force a build.
 */
export function buildOnce(): void {
  const stamp = join(ROOT, STAMP);
  const inputs = BUILD_INPUTS.map((path) => join(ROOT, path)).filter((path) => existsSync(path));
  const outputs = [
    stamp,
    ...BUILD_OUTPUTS.map((path) => join(ROOT, path)),
    ...testApps().map((name) => join(testAppBuild(name), 'server/react-router.js')),
  ];
  if (outputs.every((path) => existsSync(path)) && statSync(stamp).mtimeMs > Math.max(...inputs.map(newestMtime))) return;
  // The start time, not the end: a source saved while the build runs is newer than the stamp.
  const startedAt = new Date();
  const env = { ...process.env, NODE_ENV: 'production' };
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (const name of testApps()) buildTestApp(name, env);
  writeFileSync(stamp, '');
  utimesSync(stamp, startedAt, startedAt);
}
