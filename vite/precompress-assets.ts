// The browser build's compressed copies of its assets (server/assets/precompressed-assets.ts
// serves them as they are): brotli and gzip at their best, once per build.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';
import type { Plugin } from 'vite';
import { CODING_SUFFIXES } from '../server/assets/accept-encoding.ts';

/** Text the browser fetches; images and fonts are compressed formats already. */
const COMPRESSIBLE_ASSET = /\.(?:js|mjs|css|svg|map|json|txt|html|xml|webmanifest)$/;
/** Below this a compressed copy saves less than its headers cost: not worth a second file. */
const MIN_COMPRESSED_BYTES = 256;
/** Zopfli's advice for files of a few hundred KB (its README): more iterations gain a few bytes for much time. */
const ZOPFLI_ITERATIONS = 15;
const COMPRESS = {
  br: (bytes: Buffer) =>
    Promise.resolve(
      brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
    ),
  // Zopfli writes gzip any client decodes, 3-4% smaller than zlib's best (the first load's file: 98.1 against 101.3 KB).
  gzip: async (bytes: Buffer) => Buffer.from(await gzipAsync(bytes, { numiterations: ZOPFLI_ITERATIONS })),
};

/**
 * Writes `<file>.br` and `<file>.gz` beside each text asset of the client build. Built assets
 * never change (hashed names), so each is compressed once, at the highest settings, and the
 * server only picks a file (server/assets/precompressed-assets.ts): brotli at quality 11 is far too
 * slow to run per request.
 */
export function precompressAssets(): Plugin {
  return {
    name: 'react-ssr-host:precompress-assets',
    apply: 'build',
    async writeBundle(options, bundle) {
      if (options.dir === undefined) return;
      for (const fileName of Object.keys(bundle)) {
        if (!fileName.startsWith('assets/') || !COMPRESSIBLE_ASSET.test(fileName)) continue;
        const path = join(options.dir, fileName);
        const bytes = readFileSync(path);
        if (bytes.length < MIN_COMPRESSED_BYTES) continue;
        for (const coding of ['br', 'gzip'] as const) {
          const compressed = await COMPRESS[coding](bytes);
          // A copy no smaller than the file would only cost the client the decoding.
          if (compressed.length < bytes.length) writeFileSync(path + CODING_SUFFIXES[coding], compressed);
        }
      }
    },
  };
}
