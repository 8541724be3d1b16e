import type { Response } from 'express';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { PipeableStream } from 'react-dom/server';

export const HTML_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  // HTML differs per request (nonce, runtime data, digests): never let a cache keep it.
  'Cache-Control': 'no-store',
};

/** Per-user data: no shared cache may keep it (and the page URL's own response is HTML). */
export const DATA_HEADERS = { 'Cache-Control': 'no-store', 'Content-Type': 'application/x-ndjson; charset=utf-8' };

/**
 * Sends a body the renderer started (shared/page-seam.ts), unless the response is gone or
 * answered. React writes whatever is ready in many small chunks at once: corked, they leave as
 * one packet with the headers instead of one write each.
 */
export function sendBody(res: Response, status: number, headers: Record<string, string>, body: PipeableStream | Readable): void {
  if (res.destroyed || res.headersSent) return;
  res.status(status).set(headers);
  res.cork();
  body.pipe(res);
  // Compressed, a line of navigation data would wait in the compressor for the next (React
  // flushes its own writes): each is sent as it is written (server/compress-responses.ts).
  const flush = (res as Response & { flush?: () => void }).flush;
  if (flush !== undefined && body instanceof Readable) body.on('data', () => flush.call(res));
  process.nextTick(() => res.uncork());
}

/** The headers a page's loaders and action set (route modules may not set the framing ones: client/router/server-calls.ts). */
export function setRouteHeaders(res: Response, headers: Headers): void {
  for (const [name, value] of headers) if (name !== 'set-cookie') res.setHeader(name, value);
  for (const cookie of headers.getSetCookie()) res.append('Set-Cookie', cookie);
}

/** A resource route's own Response: its status, its headers (every cookie) and its body, streamed. */
export function sendResource(res: Response, response: globalThis.Response): void {
  if (res.destroyed || res.headersSent) return;
  res.status(response.status);
  setRouteHeaders(res, response.headers);
  if (response.body === null) return void res.end();
  const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  // A body that fails mid-way cannot become an error page any more: the connection is cut, as for a page.
  body.on('error', () => res.destroy());
  body.pipe(res);
}
