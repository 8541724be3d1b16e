import { constants } from 'node:zlib';
import compression from 'compression';
import compressibleMime from 'compressible';
import { boundedMemo } from '../../shared/bounded-memo.ts';
import type { Request, RequestHandler, Response } from 'express';
import { createCompressionSlots } from './compression-slots.ts';

// Documents, navigation data and JSON errors, compressed as they stream: `compression` negotiates
// the coding (brotli or gzip), sets Vary: Accept-Encoding, leaves HEAD and 304 alone, and adds
// the `flush()` that React calls after each batch it writes, so the shell still leaves before the
// streamed sections (server/edge/send-response.ts flushes after each chunk of a page or its
// navigation data). Built assets are not compressed here: they exist compressed already
// (server/assets/precompressed-assets.ts). COMPRESS_RESPONSES=false turns it off where the load
// balancer compresses. At most COMPRESS_MAX_CONCURRENT responses compress at once
// (server/assets/compression-slots.ts); past that, answers go plain.

/** NDJSON (a resource route's stream of lines) is text, but not in the `compressible` database. */
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

/** Content types seen are few (ours); a client cannot add to them, but the memo is bounded anyway. */
const MAX_REMEMBERED_TYPES = 64;
/** `compression`'s own test (the `compressible` database), asked once per content type rather than per response. */
const compressibleType = boundedMemo((type: string) => NDJSON.test(type) || compressibleMime(type) === true, MAX_REMEMBERED_TYPES);

/** What `compression` would compress, before it looks at the size, the method or Accept-Encoding. */
const compressible = (res: Response) => {
  const type = res.getHeader('Content-Type');
  return type !== undefined && compressibleType(String(type));
};

/** `compression`'s rule for `Cache-Control: no-transform` (RFC 9111 §5.2.2.6): such a response is never re-encoded. */
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/;
const mayTransform = (res: Response) => !NO_TRANSFORM.test(String(res.getHeader('Cache-Control') ?? ''));

/**
 * A request whose Accept-Encoding names none of the codings (or that has none: curl, probes, most
 * API clients) can only be answered plain. `compression` would still wrap the response's write,
 * end and on and negotiate per response: a sixth of a 404's instructions (docs/performance.md). Such
 * a request skips it, and gets only what `compression` would have added: `Vary: Accept-Encoding`
 * on what it would compress for another client. Anything that might name a coding goes to it.
 */
const MAY_ACCEPT = /br|gzip|deflate|\*/i;

function varyOnly(res: Response): void {
  // Named parameters, not a rest array: Node's writeHead treats absent ones as not given.
  const writeHead = res.writeHead as (this: Response, status: number, reason?: unknown, headers?: unknown) => Response;
  res.writeHead = function (this: Response, status: number, reason?: unknown, headers?: unknown) {
    // Headers given to writeHead are set first, as compression's on-headers does, so they count.
    const given = typeof reason === 'string' ? headers : reason;
    if (given !== undefined && given !== null) {
      setGivenHeaders(this, given);
      reason = typeof reason === 'string' ? reason : undefined;
      headers = undefined;
    }
    if (compressible(this) && mayTransform(this)) varyOnCoding(this);
    return writeHead.call(this, status, reason, headers);
  } as Response['writeHead'];
}

/** writeHead's headers argument: an object, or a flat list of names and values (Node's two forms). */
function setGivenHeaders(res: Response, given: unknown): void {
  if (!Array.isArray(given)) {
    for (const [name, value] of Object.entries(given as Record<string, string | string[] | number>)) res.setHeader(name, value);
    return;
  }
  for (let i = 0; i + 1 < given.length; i += 2) res.appendHeader(String(given[i]), String(given[i + 1]));
}

/** Express's res.vary, without parsing a Vary header when there is none yet (the usual case). */
function varyOnCoding(res: Response): void {
  if (res.getHeader('Vary') === undefined) res.setHeader('Vary', 'Accept-Encoding');
  else res.vary('Accept-Encoding');
}

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
    if (!compressible(res)) return false;
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
  const compress = compression({
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS } },
    filter,
  });
  return (req, res, next) => {
    const accepted = req.headers['accept-encoding'];
    if (accepted !== undefined && MAY_ACCEPT.test(accepted)) return compress(req, res, next);
    varyOnly(res);
    next();
  };
}
