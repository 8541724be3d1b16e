import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

// The host's answers onto the Express response: React Router's (a Fetch Response: a page, a
// navigation's data, a resource route's own, a redirect), its status, headers, every cookie and
// its body streamed as React and React Router write it; and a whole answer held as text (an
// error page, a stored page), in one write.

/**
 * A page or its data with nothing of one user in it: only the browser may store it, and it asks
 * again before any reuse (so a stored nonce is never served twice), which is what lets the
 * back/forward cache restore the page; `no-store` would exclude it from that cache
 * (docs/performance.md, "What is cached where").
 */
export const SHAREABLE_PAGE = 'private, no-cache';
/** A session's data or a cookie being set, a failure, a redirect, or the answer to a write: kept nowhere. */
export const PER_REQUEST_PAGE = 'no-store';
/** A page (HTML) or React Router's navigation data (single fetch's turbo-stream, text/x-script). */
const PAGE_TYPE = /^text\/(html|x-script)\b/;

export interface SendOptions {
  /** One user's answer (a write, or a session read or holding data): no cache may keep it, whatever its routes said. */
  perUser: boolean;
  /** A document write: its redirect becomes a 303, so a reload never posts again (RFC 9110 §15.4.4). */
  afterWrite: boolean;
  /** What the body passes through on its way (a stored page's template, filled: server/pages/stored-pages.ts). */
  body?: (stream: Readable) => Readable;
}

/** The Cache-Control of an answer: one user's is no-store; a page's is the route's own, else shareable. */
function cacheControl(response: Response, status: number, perUser: boolean): string | undefined {
  if (status >= 300 || perUser || response.headers.has('Set-Cookie')) return PER_REQUEST_PAGE;
  if (response.headers.has('Cache-Control')) return undefined;
  return PAGE_TYPE.test(response.headers.get('Content-Type') ?? '') ? SHAREABLE_PAGE : undefined;
}

export function sendResponse(res: ExpressResponse, response: Response, { perUser, afterWrite, body: through }: SendOptions): void {
  if (res.destroyed || res.headersSent) return void response.body?.cancel().catch(() => undefined);
  const redirect = response.status >= 300 && response.status < 400 && response.headers.has('Location');
  const status = redirect && afterWrite ? 303 : response.status;
  res.statusCode = status;
  for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('Set-Cookie', cookies);
  const control = cacheControl(response, status, perUser);
  if (control !== undefined) res.setHeader('Cache-Control', control);
  if (response.body === null) return void res.end();
  const source = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  // A body that fails mid-way cannot become an error page any more: the connection is cut.
  source.on('error', () => res.destroy());
  const streamed = through === undefined ? source : through(source);
  const body = streamed.pipe(oneWritePerTurn());
  // Compressed, a streamed section or a line of data would wait in the compressor for the next:
  // each is sent as it is written (server/assets/compress-responses.ts).
  const flush = (res as ExpressResponse & { flush?: () => void }).flush;
  if (flush !== undefined) body.on('data', () => flush.call(res));
  // The client left: stop reading the render.
  res.on('close', () => {
    body.destroy();
    streamed.destroy();
  });
  body.pipe(res);
}

/**
 * What React writes in one go (a shell is several chunks) passed on as one chunk, so it goes to
 * the socket in one write: what came in one turn of the event loop, at its end (setImmediate),
 * as React Router's own adapter gets by pulling what its stream gathered (@react-router/node's
 * StreamPump). A section streamed later is a turn, and a write, of its own. The error page in a
 * bench app's boundary went out in five syscalls before, two now (docs/performance.md).
 */
function oneWritePerTurn(): Transform {
  let held: Buffer[] = [];
  let scheduled = false;
  const release = () => {
    scheduled = false;
    if (held.length === 0) return;
    const chunk = held.length === 1 ? held[0]! : Buffer.concat(held);
    held = [];
    gather.push(chunk);
  };
  const gather = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      held.push(chunk);
      if (!scheduled) {
        scheduled = true;
        setImmediate(release);
      }
      done();
    },
    flush(done) {
      release();
      done();
    },
  });
  return gather;
}

const HTML_TYPE = 'text/html; charset=utf-8';
/** Error pages: they carry a digest and differ per request; no cache may keep them. */
export const HTML_HEADERS = { 'Content-Type': HTML_TYPE, 'Cache-Control': PER_REQUEST_PAGE };

/**
 * A whole answer held as text or bytes (an error page, a stored page): its headers, its length
 * and the body in one write. Express's res.send would parse the type again for a charset and check
 * freshness on every answer. A HEAD gets the headers alone (Node leaves out the body of an answer to HEAD).
 */
export function sendText(res: ExpressResponse, status: number, headers: Readonly<Record<string, string>>, body: string | Buffer): void {
  res.statusCode = status;
  for (const name in headers) res.setHeader(name, headers[name]!);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

const VALIDATOR = /^(etag|last-modified)$/i;

/**
 * A stored answer whose loader gave it a validator (an ETag, a Last-Modified) keeps it: a client
 * that holds that version is answered 304 with the answer's headers, as Express's freshness check
 * (req.fresh) decides. The host sets no validator of its own (server/app.ts). True when it answered.
 */
export function answeredNotModified(
  req: ExpressRequest,
  res: ExpressResponse,
  status: number,
  headers: Readonly<Record<string, string>>,
): boolean {
  if (!Object.keys(headers).some((name) => VALIDATOR.test(name))) return false;
  res.status(status).set(headers);
  if (!req.fresh) return false;
  res.status(304).removeHeader('Content-Type');
  res.end();
  return true;
}
