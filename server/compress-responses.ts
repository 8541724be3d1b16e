import { constants } from 'node:zlib';
import compression from 'compression';
import type { RequestHandler } from 'express';

// Documents, navigation data and JSON errors, compressed as they stream: `compression` negotiates
// the coding (brotli at quality 4, its default for on-the-fly work, or gzip), sets Vary:
// Accept-Encoding, leaves HEAD and 304 alone, and adds the `flush()` that React calls after each
// batch it writes, so the shell still leaves before the streamed sections (server/page-response.ts
// flushes navigation data line by line too). Built assets are not compressed here: they exist
// compressed already (server/precompressed-assets.ts). COMPRESS_RESPONSES=false turns it off
// where the load balancer compresses.

/** Navigation data (shared/route-data.ts) is text, but not in the `compressible` database. */
const NDJSON = /^application\/x-ndjson\b/i;

/** `compression`'s own choice for brotli on the fly: an 8 KB page becomes 2.8 KB (gzip's default: 3.2). */
const BROTLI_QUALITY = 4;
/**
 * A 256 KB window instead of brotli's default 4 MB. Each response starts a new encoder, and at
 * the default its set-up cost more than compressing a page: 618 against 241 CPU µs per 8 KB
 * page written in three flushes, and 1.8× the compressed page's req/s on the server
 * (docs/performance.md). The page compresses to the same size, as did 98 KB and 390 KB of
 * repeated page markup.
 */
const BROTLI_WINDOW_BITS = 18;

export function compressResponses(): RequestHandler {
  return compression({
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS } },
    filter: (req, res) => NDJSON.test(String(res.getHeader('Content-Type') ?? '')) || compression.filter(req, res),
  });
}
