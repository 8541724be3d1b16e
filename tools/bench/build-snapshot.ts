// A frozen copy of a build for one run. Other people rebuild dist/ in this shared tree while
// a bench or soak runs (vite empties dist/client and writes new hashed names), which would turn
// asset requests into 404s mid-run. The copy sits beside a node_modules link and package.json,
// so `node <copy>/dist/server/index.js` resolves its packages and is ESM as in place. The bench's
// baseline (another checkout's build: run.ts, --baseline) is copied the same way, so nothing is
// ever written into that checkout.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { ROOT } from '../harness/paths.ts';

export interface BuildSnapshot {
  serverEntry: string;
  clientDir: string;
}

const snapshots = new Map<string, BuildSnapshot & { dir: string }>();

/** Runs on exit too; test workers that are torn down without 'exit' call it themselves. */
export function removeBuildSnapshot(): void {
  for (const { dir } of snapshots.values()) rmSync(dir, { recursive: true, force: true });
  snapshots.clear();
}

/**
 * Every file the build's manifest names must be there, or the copy caught a build half-written:
 * Vite's (.vite/manifest.json, a build from before React Router's framework mode, as a baseline
 * may be) or React Router's (`assets` in its server build, whose paths are the client's files).
 */
async function assertComplete(dist: string): Promise<void> {
  const clientDir = join(dist, 'client');
  const vite = join(clientDir, '.vite/manifest.json');
  let files: string[];
  if (existsSync(vite)) {
    const manifest = JSON.parse(readFileSync(vite, 'utf8')) as Record<string, { file: string; css?: string[] }>;
    files = Object.values(manifest).flatMap((chunk) => [chunk.file, ...(chunk.css ?? [])]);
  } else {
    const server = join(dist, 'server/react-router.js');
    if (!existsSync(server)) throw new Error(`${dist} has no server build: run npm run build and retry`);
    const { assets } = (await import(pathToFileURL(server).href)) as ServerBuild;
    const routes = Object.values(assets.routes).flatMap((route) =>
      route ? [route.module, ...(route.imports ?? []), ...(route.css ?? [])] : [],
    );
    files = [assets.url, assets.entry.module, ...assets.entry.imports, ...routes].filter(
      (file): file is string => typeof file === 'string',
    );
  }
  for (const file of files) {
    if (!existsSync(join(clientDir, file)))
      throw new Error(`the build in ${dist} is incomplete (${file} is missing): run npm run build and retry`);
  }
}

/** The dist/ of the project at `root` (this one by default), copied once per process. */
export async function buildSnapshot(root: string = ROOT): Promise<BuildSnapshot> {
  const made = snapshots.get(root);
  if (made) return made;
  const dir = mkdtempSync(join(tmpdir(), 'react-ssr-host-build-'));
  if (snapshots.size === 0) process.once('exit', removeBuildSnapshot);
  cpSync(join(root, 'dist'), join(dir, 'dist'), { recursive: true });
  cpSync(join(root, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const snapshot = { dir, serverEntry: join(dir, 'dist/server/index.js'), clientDir: join(dir, 'dist/client') };
  snapshots.set(root, snapshot);
  await assertComplete(join(dir, 'dist'));
  return snapshot;
}
