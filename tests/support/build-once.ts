import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
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

const run = promisify(execFile);
/** A build's own output is noise in a test run; its errors are what it says on stderr, kept in the thrown error. */
const quiet = (cwd: string, env: NodeJS.ProcessEnv) => ({ cwd, env, maxBuffer: 64 * 1024 * 1024 });

/** A test app's React Router build with the host's Vite plugins (its vite.config.ts). */
const buildApp = (name: string, env: NodeJS.ProcessEnv) =>
  run(process.execPath, [join(ROOT, 'node_modules/@react-router/dev/bin.cjs'), 'build'], quiet(join(TEST_APPS_DIR, name), env));
/** The host's prerender step over a test app's build (server/prerender.ts, APP_BUILD): needs the host's own build. */
const prerenderApp = (name: string, env: NodeJS.ProcessEnv) =>
  run(
    process.execPath,
    [join(ROOT, 'dist/server/prerender.js')],
    quiet(join(TEST_APPS_DIR, name), { ...env, APP_BUILD: testAppBuild(name) }),
  );

/**
 * Builds the demo and the tests' apps unless the last test run's build is newer than everything
 * they were made from: most runs change no source (one test file, or the suite again). The demo's
 * build (which makes the host's) and the apps' run side by side on the machine's two cores, then
 * each app's prerender step. Delete dist/ to force a build.
 */
export async function buildOnce(): Promise<void> {
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
  const apps = async () => {
    for (const name of testApps()) await buildApp(name, env);
  };
  await Promise.all([run('npm', ['run', 'build'], quiet(ROOT, env)), apps()]);
  await Promise.all(testApps().map((name) => prerenderApp(name, env)));
  writeFileSync(stamp, '');
  utimesSync(stamp, startedAt, startedAt);
}
