import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';

// Version skew during a rolling deploy: a page from a new replica names chunks that old
// replicas never had, and the balancer may send the browser's request for them to an old one.
// With SHARED_ASSETS_DIR, every replica of every release adds its built assets to one directory
// (a volume they all mount) before it listens, and serves /assets from its own build first and
// that directory second. A replica only becomes ready after publishing, so any page anyone can
// get names files that every replica can serve, old or new.

/**
 * Copies the files of `ownDir` that `sharedDir` lacks; returns how many. Names carry content
 * hashes, so a name already there has the same bytes. Each file is written under a temporary
 * name and renamed, so a replica reading the directory never serves half a file.
 */
export function publishAssets(ownDir: string, sharedDir: string): number {
  mkdirSync(sharedDir, { recursive: true });
  let copied = 0;
  for (const name of readdirSync(ownDir)) {
    const target = join(sharedDir, name);
    if (existsSync(target)) continue;
    const partial = join(sharedDir, `.${name}.${process.pid}.partial`);
    copyFileSync(join(ownDir, name), partial);
    renameSync(partial, target);
    copied += 1;
  }
  return copied;
}
