import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { httpError } from '../failures/errors.ts';

// The one way an endpoint reads a request body (browser reports, the Sentry tunnel, actions'
// forms and JSON, server/writes/request-body.ts): into `req.body` as a Buffer of at most `maxBytes`, or a
// 413 at once. body-parser refused an oversized body only after reading all of it ("read off
// the entire request"): a declared 1 GB, sent slowly or never, held the request to the 30 s
// request timeout, then Node answered 408 under a second request id while the first one's
// line said 200. Here a declared `Content-Length` over the cap is refused before a byte is
// read, a streamed (chunked) body as soon as it passes the cap, and either way with
// `Connection: close`: the unread rest would otherwise hold the socket (RFC 9112 §9.6).
// A body that stalls is answered 408 at the body-read timeout (BODY_TIMEOUT_MS, shorter than
// the server's request timeout), under the request's own id: Node's own 408 at the request
// timeout came under a second id with no method or path, and the first request's line said 200.
// `Expect: 100-continue` is answered here, once an endpoint has decided to read the body
// (RFC 9110 §10.1.1): a request refused from its headers (403, 405, 413, 415) never gets a 100.

/** Bodies are read as they came: a compressed one is refused (RFC 9110 §15.5.16) rather than inflated unbounded. */
const IDENTITY = /^\s*identity\s*$/i;

const tooLarge = (maxBytes: number) =>
  httpError(413, `Request body too large: this endpoint accepts at most ${maxBytes} bytes`, { headers: { Connection: 'close' } });

/** Requests whose client waits for `100 Continue` before it sends the body (server/edge/http-server.ts). */
const awaitingContinue = new WeakSet<IncomingMessage>();

/** The client sent `Expect: 100-continue`: the 100 is sent only if and when the body is read. */
export function deferContinue(req: IncomingMessage): void {
  awaitingContinue.add(req);
}

function sendContinue(req: IncomingMessage, res: ServerResponse): void {
  if (awaitingContinue.delete(req) && !res.headersSent) res.writeContinue();
}

const tooSlow = (timeoutMs: number) =>
  httpError(408, `Request body timeout: the body did not arrive within ${timeoutMs} ms`, { headers: { Connection: 'close' } });

function declaredLength(req: Request): number | undefined {
  const header = req.headers['content-length'];
  // Node's parser has already refused a malformed or doubled Content-Length (400).
  return header === undefined ? undefined : Number(header);
}

export function limitBody(maxBytes: number, timeoutMs: number): RequestHandler {
  return (req, res, next) => {
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && !IDENTITY.test(encoding)) {
      return next(httpError(415, 'Unsupported Content-Encoding: send the body uncompressed', { headers: { Connection: 'close' } }));
    }
    const declared = declaredLength(req);
    if (declared !== undefined && declared > maxBytes) return next(tooLarge(maxBytes));
    const chunks: Buffer[] = [];
    let received = 0;
    const timer = setTimeout(() => {
      stop();
      req.pause(); // nothing more is read; the response closes the connection
      next(tooSlow(timeoutMs));
    }, timeoutMs);
    const stop = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= maxBytes) return void chunks.push(chunk);
      stop();
      req.pause(); // nothing more is read; the response closes the connection
      next(tooLarge(maxBytes));
    };
    const onEnd = () => {
      stop();
      (req as Request & { body: Buffer }).body = Buffer.concat(chunks, received);
      next();
    };
    // The client left mid-body: its access line says "request aborted"; nothing failed.
    const onError = () => {
      stop();
      next(httpError(400, 'Request body incomplete: the connection closed before its end'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    sendContinue(req, res);
  };
}
