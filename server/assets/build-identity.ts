import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// A release's identity as the server knows it: the client build's is its manifest's hash
// (frontend.ts); the server build's, below, is of its entry files, which name every chunk they
// import by a hash of its content. Stored pages are keyed by both (server/app.ts), and
// prerendered ones are served only by the build that wrote them (server/pages/prerender-manifest.ts).

/**
 * The project an entry runs in, from its own URL: server/ in dev, dist/server/ when built (where
 * the build's dist/ is, which need not be the app root's: a build of its own elsewhere).
 */
export function projectRootOf(entryUrl: string): string {
  const here = dirname(fileURLToPath(entryUrl));
  return here.endsWith(join('dist', 'server')) ? resolve(here, '../..') : resolve(here, '..');
}

/**
 * The built server's identity: the host's process (`hostDir`'s server/index.js) and the app's
 * server build it serves (`appDir`'s server/react-router.js), hashed: an identity that a
 * loader-only change alters.
 */
export function serverBuildOf(hostDir: string, appDir: string): string {
  const hash = createHash('sha256');
  for (const file of [join(hostDir, 'server/index.js'), join(appDir, 'server/react-router.js')]) hash.update(readFileSync(file));
  return hash.digest('base64url').slice(0, 16);
}
