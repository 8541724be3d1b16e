import { createServer, type IncomingMessage, type RequestListener, type ServerResponse, type Server } from 'node:http';
import type { Logger } from 'pino';
import { deferContinue } from './body-limit.ts';
import { createConnectionBound } from './connections.ts';
import { answerParserError, answerRequest, EXPECTATION_FAILED, expectationFails, hostRefusal, refuseConnect } from './http-refusals.ts';

/**
 * Limits of the Node HTTP server, set on purpose so a slow or greedy client cannot hold a
 * connection or memory forever.
 */
export interface ServerLimits {
  /** Time to receive a request's headers: slowloris protection. */
  headersTimeoutMs: number;
  /**
   * Time to receive a whole request (headers and body); responses may stream longer. A body the
   * app reads has its own, shorter timeout (BODY_TIMEOUT_MS, server/edge/body-limit.ts).
   */
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

/**
 * Node's HTTP server with our limits. With a logger (the process, the tests), every request
 * the parser produces is answered by us, with an id and an access line: through `listener`, or
 * by server/edge/http-refusals.ts for what breaks the protocol, and within the per-connection bound
 * of server/edge/connections.ts.
 */
export function createHttpServer(listener: RequestListener, limits: ServerLimits = SERVER_LIMITS, logger?: Logger): Server {
  const server = createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    maxHeaderSize: limits.maxHeaderBytes,
    connectionsCheckingInterval: limits.checkIntervalMs,
    // Node's check answers 400 with no id and no line; hostRefusal answers it instead.
    requireHostHeader: logger === undefined,
  });
  if (!logger) return server.on('request', listener);
  const bound = createConnectionBound(logger);
  const serve = (req: IncomingMessage, res: ServerResponse, expectation?: 'continue' | 'failed') => {
    if (!bound.admit(req, res)) return;
    const refusal = hostRefusal(req) ?? (expectation === 'failed' || expectationFails(req) ? EXPECTATION_FAILED : undefined);
    if (refusal) return answerRequest(logger, req, res, refusal);
    // The 100 waits until an endpoint decides to read the body (server/edge/body-limit.ts).
    if (expectation === 'continue') deferContinue(req);
    listener(req, res);
  };
  server.on('request', serve);
  // Node's check of `Expect` lets "100-continue" through anywhere in the value and answers
  // anything else itself; both come here instead (server/edge/http-refusals.ts).
  server.on('checkContinue', (req, res) => serve(req, res, 'continue'));
  server.on('checkExpectation', (req, res) => serve(req, res, 'failed'));
  server.on('clientError', answerParserError(logger, bound.dropping));
  server.on('connect', refuseConnect(logger));
  return server;
}
