import { Router } from 'express';

/** Liveness and readiness: cheap, no I/O, logged at debug only (see logger.ts). */
export function createHealthRouter(isShuttingDown: () => boolean): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').type('text/plain').send('ok');
  });
  // 503 while draining, so a load balancer stops sending traffic before the process exits.
  router.get('/readyz', (_req, res) => {
    const draining = isShuttingDown();
    res.status(draining ? 503 : 200).set('Cache-Control', 'no-store').type('text/plain').send(draining ? 'shutting down' : 'ready');
  });
  return router;
}
