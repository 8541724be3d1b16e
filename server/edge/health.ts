import type { RequestHandler, Response } from 'express';
import { routedPath } from '../observe/url-path.ts';

const HEALTH = '/healthz';
const READY = '/readyz';
/** What a balancer or kubelet asks many times a minute: no trace of it is worth keeping (server/app.ts). */
export const HEALTH_PATHS: readonly string[] = [HEALTH, READY];
const METHODS = 'GET, HEAD';
/** The longest target either path can be without a query: the longer path and its trailing slash. */
const LONGEST_TARGET = Math.max(HEALTH.length, READY.length) + 1;

const answer = (res: Response, status: number, text: string) =>
  void res.status(status).set('Cache-Control', 'no-store').type('text/plain').send(text);

/**
 * Liveness and readiness: cheap, no I/O, logged at debug only (see logger.ts). One function,
 * not a router: every request passes here, and a router's dispatch loop cost each of them. It
 * answers as the router did, OPTIONS with the methods (Express's default answer) included.
 */
export function healthChecks(isShuttingDown: () => boolean): RequestHandler {
  return (req, res, next) => {
    const path = req.url.length <= LONGEST_TARGET || req.url.includes('?') ? routedPath(req.url) : '';
    if (path === HEALTH || path === READY) {
      if (req.method === 'OPTIONS') return void res.set('Allow', METHODS).send(METHODS);
      if (req.method === 'GET' || req.method === 'HEAD') {
        if (path === HEALTH) return answer(res, 200, 'ok');
        // 503 from the first signal on, while the server still accepts (see shutdown.ts), so a
        // load balancer takes this replica out of rotation before its listener closes. The 503
        // closes its connection too: a balancer that reuses the socket for a request would
        // otherwise be reset when the listener closes under it (RFC 9112 §9.6).
        if (!isShuttingDown()) return answer(res, 200, 'ready');
        res.set('Connection', 'close');
        return answer(res, 503, 'shutting down');
      }
    }
    // While shutting down, every response closes its connection (RFC 9112 §9.6), so keep-alive
    // clients reconnect, and land on a replica that stays.
    if (isShuttingDown()) res.set('Connection', 'close');
    next();
  };
}
