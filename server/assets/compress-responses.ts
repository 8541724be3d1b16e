import { constants } from 'node:zlib';
import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';
import { createCompressionSlots } from './compression-slots.ts';

// Documents, navigation data and JSON errors, compressed as they stream: `compression` negotiates
// the coding (brotli or gzip), sets Vary: Accept-Encoding, leaves HEAD and 304 alone, and adds
// the `flush()` that React calls after each batch it writes, so the shell still leaves before the
// streamed sections (server/pages/batched-destination.ts; server/pages/page-response.ts flushes navigation
// data line by line too). Built assets are not compressed here: they exist compressed already
// (server/assets/precompressed-assets.ts). COMPRESS_RESPONSES=false turns it off where the load
// balancer compresses. At most COMPRESS_MAX_CONCURRENT responses compress at once
// (server/assets/compression-slots.ts); past that, answers go plain.

/** Navigation data (shared/route-data.ts) is text, but not in the `compressible` database. */
const NDJSON = /^application\/x-ndjson\b/i;

/**
 * Brotli's fastest quality but one, not `compression`'s default of 4. At 4 each response's
 * encoder clears and fills a 512 KB hash table, in zlib's thread pool, on the core the page
 * renders on: the streamed page kept 0.79× of its plain req/s at quality 4, 0.88× at 2 and 0.90×
 * at 1, where issue 21 allows 0.85× (docs/performance.md, "Compression on the fly"). The price
 * is bytes: `/` is 3,840 bytes at 1, 3,591 at 2 and 3,261 at 4 (9,546 plain, 3,454 gzip).
 */
const BROTLI_QUALITY = 1;
/**
 * A 256 KB window instead of brotli's default 4 MB. Each response starts a new encoder, and at
 * quality 4 the default window's set-up cost more than compressing a page (618 against 241 CPU
 * µs per 8 KB page written in three flushes); no page here needs a farther reach.
 */
const BROTLI_WINDOW_BITS = 18;

export interface CompressOptions {
  /** Responses that may be compressing at once (COMPRESS_MAX_CONCURRENT). */
  maxConcurrent: number;
  /** Called for each answer sent plain because every slot was taken (a Prometheus counter). */
  onBusy?: () => void;
}

/** What `compression` would compress, before it looks at the size, the method or Accept-Encoding. */
const compressible = (req: Request, res: Response) =>
  NDJSON.test(String(res.getHeader('Content-Type') ?? '')) || compression.filter(req, res);

/** Whether the response carries a coding (compression treats `identity` as none, and compresses). */
const encoded = (res: Response) => (res.getHeader('Content-Encoding') ?? 'identity') !== 'identity';

/** Codings `compression` can send: a client that accepts none of them gets plain bytes anyway. */
const CODINGS = ['br', 'gzip', 'deflate'];

export function compressResponses({ maxConcurrent, onBusy }: CompressOptions): RequestHandler {
  const slots = createCompressionSlots(maxConcurrent);
  /**
   * `compression` asks its filter as the headers are written, then, in the same turn, sets
   * Content-Encoding if it made an encoder (compression 1.8, its onHeaders listener): a HEAD,
   * a body under its 1 KB threshold or a client that accepts only identity gets none, and
   * gives its slot back at once.
   */
  function filter(req: Request, res: Response): boolean {
    if (!compressible(req, res)) return false;
    if (req.method === 'HEAD' || encoded(res)) return true; // compression sends these as they are
    if (slots.take(res)) {
      queueMicrotask(() => {
        if (!encoded(res)) slots.give(res);
      });
      return true;
    }
    // Plain for now, compressed again once slots free up: the answer still varies by coding.
    res.vary('Accept-Encoding');
    if (req.headers['accept-encoding'] !== undefined && req.acceptsEncodings(CODINGS)) onBusy?.();
    return false;
  }
  return compression({
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS } },
    filter,
  });
}
