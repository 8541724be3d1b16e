import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Coding } from '../assets/accept-encoding.ts';
import type { InlineHashes } from './inline-hashes.ts';
import { LINE_LEVEL } from '../observe/log-levels.ts';

// What `npm run build` prerendered (server/prerender.ts writes it, docs/caching.md "Prerendered
// pages"): per path, its document and the navigation data of each set of routes a browser may
// ask for, each a file in each coding that was worth writing. The server reads it once at
// start-up, and only a manifest of its own build: another build's pages name other assets.

/** Under dist/: its own folder, never dist/client (whose files are public: server/assets/public-files.ts). */
/** In a build's folder (dist/, or APP_BUILD's), beside its client/ and server/. */
export const PRERENDER_DIR = 'prerendered';
export const MANIFEST_FILE = 'manifest.json';
const MANIFEST_VERSION = 1;

export type FileCoding = Coding | 'identity';

/** One representation: the file's name in PRERENDER_DIR, its strong ETag (a hash of its bytes) and its size. */
export interface PrerenderedBytes {
  file: string;
  etag: string;
  bytes: number;
}

export interface PrerenderedAnswer {
  /** Identity always; br and gzip where the compressed copy was smaller. */
  codings: Partial<Record<FileCoding, PrerenderedBytes>> & { identity: PrerenderedBytes };
  /** What the routes set (their `headers` export, a loader's `data(…, { headers })`); never a cookie (the build refuses one). */
  headers: Record<string, string>;
}

export interface PrerenderedPage {
  /** The route that answers it: the access line's `page:<id>` and `data:<id>`. */
  route: string;
  document: PrerenderedAnswer & { csp: InlineHashes };
  /** By the `_routes` value a navigation sends (`site,guide`): each suffix of the branch's routes with server data. */
  data: Record<string, PrerenderedAnswer>;
}

export interface PrerenderManifest {
  version: typeof MANIFEST_VERSION;
  /** The builds that wrote it: the client's (frontend.ts) and the server's (assets/build-identity.ts). */
  release: { client: string; server: string };
  /** By path as a request names it (percent-encoded). */
  pages: Record<string, PrerenderedPage>;
}

export function manifestOf(release: PrerenderManifest['release'], pages: Record<string, PrerenderedPage>): PrerenderManifest {
  return { version: MANIFEST_VERSION, release, pages };
}

function answersOf(page: PrerenderedPage): PrerenderedAnswer[] {
  return [page.document, ...Object.values(page.data)];
}

/** Why this manifest cannot be served by this build, or undefined when it can. */
function mismatch(manifest: PrerenderManifest, release: PrerenderManifest['release'], files: ReadonlySet<string>): string | undefined {
  if (manifest.version !== MANIFEST_VERSION || typeof manifest.pages !== 'object' || manifest.pages === null) return 'an unknown format';
  if (manifest.release?.client !== release.client || manifest.release?.server !== release.server) {
    return 'another build (run npm run build again)';
  }
  for (const page of Object.values(manifest.pages)) {
    const missing = answersOf(page)
      .flatMap((answer) => Object.values(answer.codings))
      .find((bytes) => !files.has(bytes.file));
    if (missing !== undefined) return `an incomplete build (${missing.file} is missing)`;
  }
  return undefined;
}

/**
 * The prerendered pages under `dir` for this release, read once; none (undefined) when the build
 * wrote none. One that cannot be served (another build's, incomplete) is one warn line, and its
 * paths are rendered per request.
 */
export function readPrerendered(dir: string, release: PrerenderManifest['release'], logger: Logger): PrerenderManifest | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    return undefined;
  }
  let manifest: PrerenderManifest;
  try {
    manifest = JSON.parse(text) as PrerenderManifest;
  } catch {
    manifest = { version: 0 } as unknown as PrerenderManifest;
  }
  const why = mismatch(manifest, release, new Set(readdirSync(dir)));
  if (why === undefined) return manifest;
  logger[LINE_LEVEL.lifecycleWarning]({ dir }, `prerendered pages not served: ${dir}/${MANIFEST_FILE} is from ${why}`);
  return undefined;
}
