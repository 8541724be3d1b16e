// Compression at its best, for bytes compressed once at build and served as files many times:
// the client build's assets (vite/precompress-assets.ts) and the prerendered pages
// (server/pages/prerender-output.ts). Far too slow to run per request (brotli at quality 11).
import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';
import type { Coding } from './accept-encoding.ts';

/** Zopfli's advice for files of a few hundred KB (its README): more iterations gain a few bytes for much time. */
const ZOPFLI_ITERATIONS = 15;

const brotli = promisify(brotliCompress);

export const COMPRESS_BEST: Record<Coding, (bytes: Buffer) => Promise<Buffer>> = {
  // On libuv's threads: a build compressing many files runs them beside zopfli, which holds the main thread.
  br: (bytes) =>
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  // Zopfli writes gzip any client decodes, 3-4% smaller than zlib's best (the first load's file: 98.1 against 101.3 KB).
  gzip: async (bytes) => Buffer.from(await gzipAsync(bytes, { numiterations: ZOPFLI_ITERATIONS })),
};

/** Below this a compressed copy saves less than its headers cost: not worth a second file. */
export const MIN_COMPRESSED_BYTES = 256;
