// A frozen copy of the build for one run. Other people rebuild dist/ in this shared tree while
// a bench or soak runs (vite empties dist/client and writes new hashed names), which would turn
// asset requests into 404s mid-run. The copy sits beside a node_modules link and package.json,
// so `node <copy>/dist/server/index.js` resolves its packages and is ESM as in place.
import { execFileSync, type ExecFileSyncOptions } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../harness/paths.ts';

export interface BuildSnapshot {
  serverEntry: string;
  clientDir: string;
}

let snapshot: (BuildSnapshot & { dir: string }) | undefined;

/** Runs on exit too; test workers that are torn down without 'exit' call it themselves. */
export function removeBuildSnapshot(): void {
  if (snapshot) rmSync(snapshot.dir, { recursive: true, force: true });
  snapshot = undefined;
}

/** Every file the manifest names must be there, or the copy caught a build half-written. */
function assertComplete(clientDir: string): void {
  const manifest = JSON.parse(readFileSync(join(clientDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    { file: string; css?: string[] }
  >;
  for (const chunk of Object.values(manifest)) {
    for (const file of [chunk.file, ...(chunk.css ?? [])]) {
      if (!existsSync(join(clientDir, file))) throw new Error(`the build is incomplete (${file} is missing): run npm run build and retry`);
    }
  }
}

/** A node_modules link and package.json beside `dir/dist`, so its server resolves packages and is ESM as in place. */
function asProject(dir: string): void {
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
}

/**
 * A build of its own in a temporary directory, with these variables set (`SYNTHETIC_ROUTES`):
 * the client and server builds of `npm run build`, leaving dist/ as it is. Removed on exit.
 */
export function buildVariant(env: Record<string, string>): BuildSnapshot {
  const dir = mkdtempSync(join(tmpdir(), 'react-ssr-host-variant-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const vite = join(ROOT, 'node_modules/.bin/vite');
  const options: ExecFileSyncOptions = {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  };
  execFileSync(vite, ['build', '--outDir', join(dir, 'dist/client')], options);
  execFileSync(vite, ['build', '--ssr', '--outDir', join(dir, 'dist/server')], options);
  asProject(dir);
  const variant = { serverEntry: join(dir, 'dist/server/index.js'), clientDir: join(dir, 'dist/client') };
  assertComplete(variant.clientDir);
  return variant;
}

export function buildSnapshot(): BuildSnapshot {
  if (snapshot) return snapshot;
  const dir = mkdtempSync(join(tmpdir(), 'react-ssr-host-build-'));
  process.once('exit', removeBuildSnapshot);
  cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  asProject(dir);
  snapshot = { dir, serverEntry: join(dir, 'dist/server/index.js'), clientDir: join(dir, 'dist/client') };
  assertComplete(snapshot.clientDir);
  return snapshot;
}
