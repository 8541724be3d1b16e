import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { newRequestId, outsideAccessLine } from '../observe/access-log.ts';
import { ACCESS_ABORTED, ACCESS_COMPLETED } from '../../shared/log-line.ts';
import { LINE_LEVEL } from '../observe/log-levels.ts';
import { pathOf } from '../observe/url-path.ts';

// Requests answered before Express sees them: what Node's parser rejects, CONNECT, and the
// message-level rules of RFC 9112 that Node leaves to us (or answers itself without a word in
// our log). Each answer gets what every response gets: a request id, `no-store`, a short
// plain-text reason and one access line; and `Connection: close`, since a client that broke
// the protocol once is not trusted with the rest of the connection.

type Answer = { status: number; reason: string; route: string; headers?: Record<string, string> };

function head(id: string, answer: Answer, body: string): Record<string, string> {
  return {
    'X-Request-Id': id,
    'Cache-Control': 'no-store',
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
    ...answer.headers,
  };
}

const bodyOf = (answer: Answer) => `${answer.status} ${STATUS_CODES[answer.status]}: ${answer.reason}\n`;

/** An answer written straight to the socket: there is no request object to answer through. */
export function answerOnSocket(logger: Logger, socket: Duplex, answer: Answer, request: { method?: string; path?: string } = {}): void {
  const id = newRequestId();
  const body = bodyOf(answer);
  const headers = Object.entries(head(id, answer, body)).map(([name, value]) => `${name}: ${value}\r\n`);
  const text = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${headers.join('')}\r\n${body}`;
  const ip = (socket as Socket).remoteAddress;
  const line = outsideAccessLine({
    reqId: id,
    ...request,
    route: answer.route,
    status: answer.status,
    bytes: text.length,
    ip,
    reason: answer.reason,
  });
  logger[LINE_LEVEL.access](line, ACCESS_COMPLETED);
  socket.end(text);
}

/**
 * An answer through Node's response object, which keeps pipelined responses in order. Logged
 * when it closes, like pino-http's lines, so a client that leaves first is `request aborted`.
 */
export function answerRequest(logger: Logger, req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  const id = newRequestId();
  const body = bodyOf(answer);
  const before = req.socket.bytesWritten;
  res.once('close', () => {
    const line = outsideAccessLine({
      reqId: id,
      method: req.method,
      path: pathOf(req.url ?? ''),
      route: answer.route,
      status: answer.status,
      bytes: req.socket.bytesWritten - before,
      ip: req.socket.remoteAddress,
      reason: answer.reason,
    });
    logger[LINE_LEVEL.access](line, res.writableFinished ? ACCESS_COMPLETED : ACCESS_ABORTED);
  });
  res.writeHead(answer.status, head(id, answer, body));
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Node's own answers to requests its parser rejects (its default clientError handler's). */
function parserStatus(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/**
 * A request Node's parser rejects (a malformed request line, headers too large or too slow)
 * never reaches the app. `quiet` says when nothing should be answered: a connection being
 * dropped (server/edge/connections.ts) has no request left to answer.
 */
export function answerParserError(logger: Logger, quiet: (socket: Socket) => boolean) {
  return (error: NodeJS.ErrnoException, socket: Socket) => {
    // The client is gone (or the socket is already answered): nothing to answer, nothing failed.
    if (error.code === 'ECONNRESET' || !socket.writable || quiet(socket)) return void socket.destroy();
    const status = parserStatus(error.code);
    answerOnSocket(logger, socket, { status, route: 'http-parser', reason: `rejected by the HTTP parser: ${error.code ?? 'unknown'}` });
  };
}

/**
 * CONNECT asks for a tunnel, which an origin server does not provide; Node hands it to a
 * 'connect' listener or drops the socket without a word. It gets a 405, an id and a line.
 */
export function refuseConnect(logger: Logger) {
  return (req: IncomingMessage, socket: Duplex) => {
    const answer = { status: 405, route: 'connect', reason: 'CONNECT refused: this is not a proxy', headers: { Allow: 'GET, HEAD, POST' } };
    answerOnSocket(logger, socket, answer, { method: req.method, path: req.url });
  };
}

/** How many `Host` field lines the request carried (Node keeps the first and drops the rest). */
function hostLines(req: IncomingMessage): number {
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === 'host') count++;
  return count;
}

/**
 * RFC 9112 §3.2: a server MUST answer 400 to an HTTP/1.1 request without a `Host` field and to
 * any request with more than one (two can make a proxy and this host disagree on the origin).
 * Node's own check (`requireHostHeader`) answers without an id or a line, so it is off
 * (server/edge/http-server.ts) and this one answers instead.
 */
export function hostRefusal(req: IncomingMessage): Answer | undefined {
  const lines = hostLines(req);
  if (lines > 1)
    return { status: 400, route: 'http-host', reason: `${lines} Host header lines: a request has exactly one (RFC 9112 §3.2)` };
  if (lines === 0 && req.httpVersion === '1.1')
    return { status: 400, route: 'http-host', reason: 'no Host header: HTTP/1.1 requires one (RFC 9112 §3.2)' };
  return undefined;
}

/**
 * RFC 9110 §10.1.1: the only expectation is `100-continue`; a server that receives another
 * (or a list) MAY answer 417, and does here, on HTTP/1.1. Node's own test finds "100-continue"
 * anywhere in the value (`100-continue, foo` passes) and answers the rest 417 without a line.
 * HTTP/1.0 expectations are ignored, as the RFC asks of 100-continue.
 */
export function expectationFails(req: IncomingMessage): boolean {
  const expect = req.headers.expect;
  return expect !== undefined && req.httpVersion === '1.1' && expect.trim().toLowerCase() !== '100-continue';
}

export const EXPECTATION_FAILED: Answer = {
  status: 417,
  route: 'http-expect',
  reason: 'unsupported Expect: only 100-continue is supported (RFC 9110 §10.1.1)',
};
