// A frozen copy of the build for one run. Other people rebuild dist/ in this shared tree while
// a bench or soak runs (vite empties dist/client and writes new hashed names), which would turn
// asset requests into 404s mid-run. The copy sits beside a node_modules link and package.json,
// so `node <copy>/dist/server/index.js` resolves its packages and is ESM as in place.
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

export function buildSnapshot(): BuildSnapshot {
  if (snapshot) return snapshot;
  const dir = mkdtempSync(join(tmpdir(), 'react-ssr-host-build-'));
  process.once('exit', removeBuildSnapshot);
  cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  snapshot = { dir, serverEntry: join(dir, 'dist/server/index.js'), clientDir: join(dir, 'dist/client') };
  assertComplete(snapshot.clientDir);
  return snapshot;
}
