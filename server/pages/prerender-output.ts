import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODING_SUFFIXES, type Coding } from '../assets/accept-encoding.ts';
import { COMPRESS_BEST, MIN_COMPRESSED_BYTES } from '../assets/best-compression.ts';
import { inlineHashes, withoutNonce } from './inline-hashes.ts';
import {
  MANIFEST_FILE,
  manifestOf,
  type PrerenderedAnswer,
  type PrerenderedBytes,
  type PrerenderedPage,
  type PrerenderManifest,
} from './prerender-manifest.ts';
import type { RenderedPage } from './prerender-run.ts';

// The build's prerendered pages as files (server/pages/prerender-manifest.ts describes them):
// each answer once as it is and, where that is smaller, once in brotli and once in gzip, at
// their best settings (as the client build's assets are: vite/precompress-assets.ts). Files are
// named by a hash of their bytes, the ETag is one of each file's own, and the manifest maps paths
// to them.

/** Characters of a SHA-256 in base64url: 132 bits, ample to tell files apart. */
const HASH_CHARS = 22;
const hashOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64url').slice(0, HASH_CHARS);

/** Writes one answer in each coding worth writing; `ext` names its type (`.html`, `.ndjson`). */
async function writeAnswer(dir: string, text: string, ext: string, headers: Headers): Promise<PrerenderedAnswer> {
  const bytes = Buffer.from(text, 'utf8');
  const name = hashOf(bytes) + ext;
  const write = (file: string, content: Buffer): PrerenderedBytes => {
    writeFileSync(join(dir, file), content);
    return { file, etag: `"${hashOf(content)}"`, bytes: content.length };
  };
  const codings: PrerenderedAnswer['codings'] = { identity: write(name, bytes) };
  if (bytes.length >= MIN_COMPRESSED_BYTES) {
    for (const coding of Object.keys(CODING_SUFFIXES) as Coding[]) {
      const compressed = await COMPRESS_BEST[coding](bytes);
      // A copy no smaller than the page would only cost the client the decoding.
      if (compressed.length < bytes.length) codings[coding] = write(name + CODING_SUFFIXES[coding], compressed);
    }
  }
  return { codings, headers: Object.fromEntries([...headers].filter(([name]) => name !== 'set-cookie')) };
}

/** Empties `dir` of another build's pages: with none to write, none are left to be served. */
export function clearPrerendered(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Writes the pages and their manifest into `dir` (emptied first). `nonce` is the marker the
 * pages were rendered with (../render/prerender-renderer.ts): its attributes are removed, and the hashes
 * of the inline scripts and styles left are what the page's CSP allows.
 */
export async function writePrerendered(
  dir: string,
  release: PrerenderManifest['release'],
  rendered: readonly RenderedPage[],
  nonce: string,
): Promise<PrerenderManifest> {
  clearPrerendered(dir);
  mkdirSync(dir, { recursive: true });
  const pages: Record<string, PrerenderedPage> = {};
  for (const page of rendered) {
    const html = withoutNonce(page.document.body, nonce);
    if (html.includes(nonce)) throw new Error(`the page at ${page.path} carries the build's CSP nonce outside a nonce attribute`);
    const document = { ...(await writeAnswer(dir, html, '.html', page.document.headers)), csp: inlineHashes(html) };
    const data: Record<string, PrerenderedAnswer> = {};
    for (const [ids, answer] of Object.entries(page.data)) data[ids] = await writeAnswer(dir, answer.body, '.ndjson', answer.headers);
    pages[page.path] = { route: page.route, document, data };
  }
  const manifest = manifestOf(release, pages);
  writeFileSync(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
