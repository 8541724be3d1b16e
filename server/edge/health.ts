import { Router } from 'express';

/** Liveness and readiness: cheap, no I/O, logged at debug only (see logger.ts). */
export function createHealthRouter(isShuttingDown: () => boolean): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').type('text/plain').send('ok');
  });
  // 503 from the first signal on, while the server still accepts (see shutdown.ts), so a load
  // balancer takes this replica out of rotation before its listener closes.
  // The 503 closes its connection too: a balancer that reuses the socket for a request would
  // otherwise be reset when the listener closes under it (RFC 9112 §9.6).
  router.get('/readyz', (_req, res) => {
    const draining = isShuttingDown();
    if (draining) res.set('Connection', 'close');
    res
      .status(draining ? 503 : 200)
      .set('Cache-Control', 'no-store')
      .type('text/plain')
      .send(draining ? 'shutting down' : 'ready');
  });
  // While shutting down, every response closes its connection (RFC 9112 §9.6), so keep-alive
  // clients reconnect, and land on a replica that stays.
  router.use((_req, res, next) => {
    if (isShuttingDown()) res.set('Connection', 'close');
    next();
  });
  return router;
}
