import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { outsideAccessLine } from './access-log.ts';
import { ACCESS_COMPLETED } from '../shared/log-line.ts';
import { LINE_LEVEL } from './log-levels.ts';

/**
 * Limits of the Node HTTP server, set on purpose so a slow or greedy client cannot hold a
 * connection or memory forever.
 */
export interface ServerLimits {
  /** Time to receive a request's headers: slowloris protection. */
  headersTimeoutMs: number;
  /** Time to receive a whole request (headers and body); responses may stream longer. */
  requestTimeoutMs: number;
  /** Longer than load balancers' idle timeout (AWS ALB: 60 s), so they never reuse a socket we closed. */
  keepAliveTimeoutMs: number;
  /** Node's default; larger headers are answered 431. */
  maxHeaderBytes: number;
  /** How often Node checks the two timeouts above (its default, 30 s, lets them overrun). */
  checkIntervalMs: number;
}

export const SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
  maxHeaderBytes: 16 * 1024,
  checkIntervalMs: 1_000,
};

/** Node's own answers to requests its parser rejects (its default clientError handler's). */
function parserStatus(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/**
 * A request Node's HTTP parser rejects (a malformed request line, headers too large or too
 * slow) never reaches the app. It still gets what every response gets: a request id, and one
 * access line, so no answer leaves the server unlogged.
 */
function answerParserError(logger: Logger) {
  return (error: NodeJS.ErrnoException, socket: Socket) => {
    // The client is gone (or the socket is already answered): nothing to answer, nothing failed.
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const status = parserStatus(error.code);
    const id = randomUUID();
    const answer = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nX-Request-Id: ${id}\r\nCache-Control: no-store\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;
    const reason = `rejected by the HTTP parser: ${error.code ?? 'unknown'}`;
    logger[LINE_LEVEL.access](
      outsideAccessLine({ reqId: id, route: 'http-parser', status, bytes: answer.length, ip: socket.remoteAddress, reason }),
      ACCESS_COMPLETED,
    );
    socket.end(answer);
  };
}

/**
 * CONNECT asks for a tunnel, which an origin server does not provide; Node hands it to a
 * 'connect' listener or drops the socket without a word. It gets a 405, an id and a line.
 */
function refuseConnect(logger: Logger) {
  return (req: IncomingMessage, socket: Duplex) => {
    const id = randomUUID();
    const answer = `HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD, POST\r\nX-Request-Id: ${id}\r\nCache-Control: no-store\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;
    const line = {
      reqId: id,
      method: req.method,
      path: req.url,
      route: 'connect',
      status: 405,
      bytes: answer.length,
      ip: req.socket.remoteAddress,
    };
    logger[LINE_LEVEL.access](outsideAccessLine({ ...line, reason: 'CONNECT refused: this is not a proxy' }), ACCESS_COMPLETED);
    socket.end(answer);
  };
}

export function createHttpServer(listener: RequestListener, limits: ServerLimits = SERVER_LIMITS, logger?: Logger): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      maxHeaderSize: limits.maxHeaderBytes,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    listener,
  );
  if (logger) {
    server.on('clientError', answerParserError(logger));
    server.on('connect', refuseConnect(logger));
  }
  return server;
}
