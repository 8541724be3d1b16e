import { timingSafeEqual, createHash } from 'node:crypto';
import { Router, type Request } from 'express';
import { HttpError } from './errors/http-error.ts';
import type { RequestHandler } from 'express';
import type { PageRequest } from '../shared/runtime.ts';

// Routes that fail on purpose, so an operator can prove the whole error pipeline after a
// deploy and tests can drive every failure mode. They exist only when DIAGNOSTICS_TOKEN is
// configured, and answer only requests that carry it; everything else is a plain 404.

export const DIAGNOSTICS_HEADER = 'x-diagnostics-token';
/** The slow page's delay is capped so it cannot be used to hold sockets open. */
export const MAX_SLOW_MS = 30_000;

/** Hashing first makes the comparison constant-time whatever the lengths. */
function tokenMatches(sent: string | undefined, expected: string): boolean {
  if (sent === undefined) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(sent), digest(expected));
}

function slowMs(req: Request): number {
  const raw = req.query.ms ?? '1000';
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw)) {
    throw new HttpError(400, `ms must be an integer from 0 to ${MAX_SLOW_MS}`);
  }
  return Math.min(Number(raw), MAX_SLOW_MS);
}

export function createDiagnosticsRouter(token: string, page: (page: PageRequest) => RequestHandler): Router {
  const router = Router();
  router.use((req, res, next) => {
    res.locals.route = req.baseUrl + req.path;
    next(tokenMatches(req.get(DIAGNOSTICS_HEADER), token) ? undefined : new HttpError(404));
  });
  router.all('/server-error', page({ route: 'diag-server-error', params: {} }));
  router.all('/stream-error', page({ route: 'diag-stream-error', params: {} }));
  router.all('/client-error', page({ route: 'diag-client-error', params: {} }));
  router.all('/slow', (req, res, next) => page({ route: 'diag-slow', params: { ms: slowMs(req) } })(req, res, next));
  router.all('/api-error', (_req, res) => {
    res.locals.api = true;
    throw new Error('Diagnostic API error: a JSON route threw');
  });
  router.all('/async-error', async () => {
    await Promise.resolve();
    throw new Error('Diagnostic async error: a handler promise rejected');
  });
  return router;
}
