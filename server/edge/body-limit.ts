import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { httpError, type HttpError } from '../failures/errors.ts';

// The one way an endpoint reads a request body (browser reports, the Sentry tunnel, actions'
// forms and JSON, server/writes/request-body.ts): into `req.body` as a Buffer of at most `maxBytes`, or a
// 413 at once; or, for an upload (streamBody, below), as a stream the action reads at its own
// pace under the same rules. body-parser refused an oversized body only after reading all of it ("read off
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

/** What the headers alone refuse: a compressed body (415), or one declared over the cap (413). */
function refusedByHeaders(req: Request, maxBytes: number): HttpError | undefined {
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && !IDENTITY.test(encoding))
    return httpError(415, 'Unsupported Content-Encoding: send the body uncompressed', { headers: { Connection: 'close' } });
  const declared = declaredLength(req);
  if (declared !== undefined && declared > maxBytes) return tooLarge(maxBytes);
  return undefined;
}

const incomplete = () => httpError(400, 'Request body incomplete: the connection closed before its end');

export function limitBody(maxBytes: number, timeoutMs: number): RequestHandler {
  return (req, res, next) => {
    const refused = refusedByHeaders(req, maxBytes);
    if (refused) return next(refused);
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
      next(incomplete());
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    sendContinue(req, res);
  };
}

/** A body read as a stream. */
export interface StreamedBody {
  stream: ReadableStream<Uint8Array>;
  /** Whether every byte was read. */
  complete(): boolean;
  /** The answer is going without the rest of the body: read it and drop it, for a bounded time (below). */
  linger(): void;
}

/**
 * How long the rest of an upload is still read and dropped once its answer no longer needs it
 * (refused past the cap, or answered without reading it): nginx's lingering close. Closing with
 * bytes unread makes the kernel reset the connection, and the reset can reach a client still
 * sending before it has read the answer, which it then never sees (a fetch failed with EPIPE, not
 * its 413). Past this the connection is cut: a client may not hold it longer by sending slowly.
 */
export const LINGER_MS = 2_000;
const lingering = new WeakSet<IncomingMessage>();

/** Whether the request's body is being read and dropped after its answer (server/edge/connections.ts leaves its connection open meanwhile). */
export const isLingering = (req: IncomingMessage): boolean => lingering.has(req);

/** Reads what is left of `req`'s body and drops it, for at most LINGER_MS; then the connection is cut. */
function linger(req: Request): void {
  if (req.complete || lingering.has(req)) return;
  lingering.add(req);
  const cut = setTimeout(() => req.socket.destroy(), LINGER_MS);
  const done = () => {
    clearTimeout(cut);
    lingering.delete(req);
  };
  req
    .on('data', () => {})
    .once('end', done)
    .once('close', done)
    .on('error', () => {});
  req.resume();
}

/**
 * An upload's body as a stream the action reads at its own pace (server/writes/form-uploads.ts),
 * never held whole: the same refusals as limitBody, from the headers at once (thrown), and while
 * it streams as the stream's error, which the reader's parse throws on (413 past the cap, 408 at
 * the timeout, 400 cut off). The timeout runs from the first read, so an action that works before
 * it reads is not charged for it; the socket is paused while the reader is behind.
 */
export function streamBody(req: Request, maxBytes: number, timeoutMs: number): StreamedBody {
  const refused = refusedByHeaders(req, maxBytes);
  if (refused) throw refused;
  let received = 0;
  let ended = false;
  let timer: NodeJS.Timeout | undefined;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stop = () => {
    clearTimeout(timer);
    req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onError);
    req.pause();
  };
  const fail = (error: HttpError) => {
    stop();
    controller.error(error);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > maxBytes) {
      fail(tooLarge(maxBytes));
      // The client is still sending: it reads the 413 once it is done, or at the linger's end.
      return linger(req);
    }
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  };
  const onEnd = () => {
    ended = true;
    stop();
    controller.close();
  };
  // The client left mid-body (an error, or a close before the end).
  const onError = () => fail(incomplete());
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        if (timer === undefined) {
          timer = setTimeout(() => fail(tooSlow(timeoutMs)), timeoutMs);
          req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onError);
          sendContinue(req, req.res!);
        }
        if (!ended) req.resume();
      },
      cancel: stop,
    },
    // Nothing read ahead: the stream pulls only when the action reads, so until then no byte is
    // read, no 100 Continue sent, and the timeout has not started.
    new CountQueuingStrategy({ highWaterMark: 0 }),
  );
  return {
    stream,
    complete: () => ended,
    linger() {
      if (ended) return;
      stop();
      linger(req);
    },
  };
}
