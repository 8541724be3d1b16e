import { createServer, type RequestListener, type Server } from 'node:http';

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

export function createHttpServer(listener: RequestListener, limits: ServerLimits = SERVER_LIMITS): Server {
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
  return server;
}
