import type { Request, Response } from 'express';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { PipeableStream } from 'react-dom/server';
import { batchedDestination } from './batched-destination.ts';

const HTML_TYPE = 'text/html; charset=utf-8';
const DATA_TYPE = 'application/x-ndjson; charset=utf-8';

/** Error pages: they carry a digest and differ per request; no cache may keep them. */
export const HTML_HEADERS = { 'Content-Type': HTML_TYPE, 'Cache-Control': 'no-store' };
/** A navigation's redirect line: the answer of one request, never reused. */
export const DATA_HEADERS = { 'Content-Type': DATA_TYPE, 'Cache-Control': 'no-store' };

/**
 * A page (or its data) with nothing of one user in it: only the browser may store it, and it
 * asks again before any reuse (so a stored nonce is never served twice), which is what lets
 * the back/forward cache restore the page; `no-store` would exclude it from that cache
 * (docs/performance.md, "What is cached where").
 */
const SHAREABLE_PAGE = 'private, no-cache';
/** A session's data or a cookie being set, a failure, or the answer to a write: kept nowhere. */
const PER_REQUEST_PAGE = 'no-store';

/**
 * The headers of a rendered page or its data. One user's answer is no-store whatever its routes
 * said; otherwise a route that set its own Cache-Control keeps it (a loader that reads a cookie
 * of its own says `no-store` there: docs/pages.md).
 */
export function pageHeaders(res: Response, kind: 'document' | 'data', status: number, perUser: boolean): Record<string, string> {
  return answerHeaders(kind, status, perUser, (name) => res.hasHeader(name));
}

/** The same, for an answer not (yet) on a response: `has` tells which headers its routes set. */
export function answerHeaders(
  kind: 'document' | 'data',
  status: number,
  perUser: boolean,
  has: (name: string) => boolean,
): Record<string, string> {
  const type = kind === 'document' ? HTML_TYPE : DATA_TYPE;
  if (status >= 300 || perUser || has('Set-Cookie')) return { 'Content-Type': type, 'Cache-Control': PER_REQUEST_PAGE };
  if (has('Cache-Control')) return { 'Content-Type': type };
  return { 'Content-Type': type, 'Cache-Control': SHAREABLE_PAGE };
}

/**
 * Sends a body the renderer started (shared/page-seam.ts), unless the response is gone or
 * answered. React's batches are one write each (server/pages/batched-destination.ts); corked for the
 * first tick, the headers leave in the same packet as the first batch or the first lines of data.
 */
export function sendBody(res: Response, status: number, headers: Record<string, string>, body: PipeableStream | Readable): void {
  if (res.destroyed || res.headersSent) return;
  res.status(status).set(headers);
  res.cork();
  if (body instanceof Readable) {
    body.pipe(res);
    // Compressed, a line of navigation data would wait in the compressor for the next (React
    // flushes its own writes): each is sent as it is written (server/assets/compress-responses.ts).
    const flush = (res as Response & { flush?: () => void }).flush;
    if (flush !== undefined) body.on('data', () => flush.call(res));
  } else body.pipe(batchedDestination(res));
  process.nextTick(() => res.uncork());
}

const VALIDATOR = /^(etag|last-modified)$/i;

/**
 * A stored answer whose loader gave it a validator (an ETag, a Last-Modified) keeps it: a client
 * that holds that version is answered 304 with the answer's headers, as Express's freshness check
 * (req.fresh) decides. The host sets no validator of its own (app.ts). True when it answered.
 */
export function answeredNotModified(req: Request, res: Response, status: number, headers: Readonly<Record<string, string>>): boolean {
  if (!Object.keys(headers).some((name) => VALIDATOR.test(name))) return false;
  res.status(status).set(headers);
  if (!req.fresh) return false;
  res.status(304).removeHeader('Content-Type');
  res.end();
  return true;
}

/**
 * A whole answer held as text or bytes (an error page, a stored page): its headers, its length
 * and the body in one write. Express's res.send would parse the type again for a charset and check
 * freshness on every answer: the type is ours, an error page has no validator, and a stored page
 * that has one is checked before (answeredNotModified). A HEAD gets the headers alone
 * (Node leaves out the body of an answer to HEAD).
 */
export function sendText(res: Response, status: number, headers: Readonly<Record<string, string>>, body: string | Buffer): void {
  res.statusCode = status;
  for (const name in headers) res.setHeader(name, headers[name]!);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/** The headers a page's loaders and action set (route modules may not set the framing ones: client/router/server/server-calls.ts). */
export function setRouteHeaders(res: Response, headers: Headers): void {
  for (const [name, value] of headers) if (name !== 'set-cookie') res.setHeader(name, value);
  for (const cookie of headers.getSetCookie()) res.append('Set-Cookie', cookie);
}

/**
 * A resource route's own Response: its status, its headers (every cookie) and its body, streamed.
 * One user's answer (`perUser`, or a cookie being set) is no-store whatever the route asked, as a page is.
 */
export function sendResource(res: Response, response: globalThis.Response, perUser: boolean): void {
  if (res.destroyed || res.headersSent) return;
  res.status(response.status);
  setRouteHeaders(res, response.headers);
  if (perUser || res.hasHeader('Set-Cookie')) res.setHeader('Cache-Control', PER_REQUEST_PAGE);
  if (response.body === null) return void res.end();
  const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  // A body that fails mid-way cannot become an error page any more: the connection is cut, as for a page.
  body.on('error', () => res.destroy());
  body.pipe(res);
}
