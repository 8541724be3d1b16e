import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The application's root: the nearest directory above this module with a package.json. This
 * module runs from server/ in dev and tests and is bundled into dist/server/ when built; both
 * lead to the same root. Stack frames are named relative to it, so replicas installed at
 * different paths (/app, /srv/web) name them alike.
 */
function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

export const APP_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
