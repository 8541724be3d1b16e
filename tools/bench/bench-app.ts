// The bench's own app (tools/bench/app): built once per bench when its sources, or the host's
// parts built into it (its entries, its Vite plugins), changed since, by the check `npm start`
// makes for the demo (tools/ensure-build.js). The host serves the build with APP_BUILD; the React
// Router floor serves the same files (tools/bench/floor-react-router.ts).
import { execFileSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { ensureBuilt, SOURCES } from '../ensure-build.js';
import { ROOT } from '../harness/paths.ts';

export const BENCH_APP_DIR = join(ROOT, 'tools/bench/app');
/** The build's root, as APP_BUILD names it (its client/ and server/). */
export const BENCH_APP_BUILD = join(BENCH_APP_DIR, 'build');

/** React Router's build of the app with its own vite.config.ts (the host's plugins), as tests/support/build-once.ts builds the tests' apps. */
function build(): void {
  const cli = join(ROOT, 'node_modules/@react-router/dev/bin.cjs');
  const env = { ...process.env, NODE_ENV: 'production' };
  execFileSync(process.execPath, [cli, 'build'], { cwd: BENCH_APP_DIR, env, stdio: ['ignore', 'ignore', 'inherit'] });
}

export function ensureBenchApp(): void {
  const outputs = ['server/react-router.js', 'client/assets'].map((file) => join(BENCH_APP_BUILD, file));
  const sources = [BENCH_APP_DIR, ...SOURCES.map((path) => join(ROOT, path))];
  ensureBuilt({ what: `${relative(ROOT, BENCH_APP_BUILD)}/`, outputs, sources, build });
}
