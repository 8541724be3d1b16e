import type { Response } from 'express';
import type { Readable } from 'node:stream';
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
  process.nextTick(() => res.uncork());
}
