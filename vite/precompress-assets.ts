// The browser build's compressed copies of its assets (server/assets/precompressed-assets.ts
// serves them as they are): brotli and gzip at their best, once per build.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import { CODING_SUFFIXES } from '../server/assets/accept-encoding.ts';
import { COMPRESS_BEST, MIN_COMPRESSED_BYTES } from '../server/assets/best-compression.ts';

/** Text the browser fetches; images and fonts are compressed formats already. */
const COMPRESSIBLE_ASSET = /\.(?:js|mjs|css|svg|map|json|txt|html|xml|webmanifest)$/;

/**
 * Brotli's quality 5 and zlib's default gzip level: the same kind of files, made in a fraction of
 * the time, for the tests' apps (tests/apps/host/vite.config.ts). Brotli's own default is its best
 * (11), which was most of such a build's CPU.
 */
const QUICK_BROTLI_QUALITY = 5;
const COMPRESS_QUICK = {
  br: (bytes: Buffer) => Promise.resolve(brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: QUICK_BROTLI_QUALITY } })),
  gzip: (bytes: Buffer) => Promise.resolve(gzipSync(bytes)),
};

/**
 * Writes `<file>.br` and `<file>.gz` beside each text asset of the client build. Built assets
 * never change (hashed names), so each is compressed once, at the highest settings, and the
 * server only picks a file (server/assets/precompressed-assets.ts): brotli at quality 11 is far too
 * slow to run per request.
 */
export function precompressAssets({ quick = false } = {}): Plugin {
  const compress = quick ? COMPRESS_QUICK : COMPRESS_BEST;
  return {
    name: 'react-ssr-host:precompress-assets',
    apply: 'build',
    // The browser's assets only: the server build's copies of them are React Router's to move or drop.
    applyToEnvironment: (environment) => environment.name === 'client',
    async writeBundle(options, bundle) {
      const { dir } = options;
      if (dir === undefined) return;
      const files = Object.keys(bundle)
        .filter((fileName) => fileName.startsWith('assets/') && COMPRESSIBLE_ASSET.test(fileName))
        .map((fileName) => ({ path: join(dir, fileName), bytes: readFileSync(join(dir, fileName)) }))
        .filter(({ bytes }) => bytes.length >= MIN_COMPRESSED_BYTES);
      // Every brotli first: it runs on libuv's threads (best-compression.ts), beside zopfli on this one.
      const copies = (['br', 'gzip'] as const).flatMap((coding) =>
        files.map(async ({ path, bytes }) => {
          const compressed = await compress[coding](bytes);
          // A copy no smaller than the file would only cost the client the decoding.
          if (compressed.length < bytes.length) writeFileSync(path + CODING_SUFFIXES[coding], compressed);
        }),
      );
      await Promise.all(copies);
    },
  };
}
