import { hash, timingSafeEqual } from 'node:crypto';
import { Router, type Request } from 'express';
import type { Config } from '../config/config.ts';

// Routes that fail on purpose, so an operator can prove the whole error pipeline after a
// deploy and tests can drive every failure mode. They exist only when DIAGNOSTICS_TOKEN is
// configured, and only for requests that carry it: for every other request they do not exist,
// and the answer is the site's ordinary 404. The diagnostic pages are route modules an app adds
// to its routes (client/router/diagnostics/routes.ts), gated by diagnosticsAllowed() below; the
// JSON routes are here.

export const DIAGNOSTICS_HEADER = 'x-diagnostics-token';
/** Where the diagnostic routes are (client/router/diagnostics/routes.ts, which the server's build does not load: it needs @react-router/dev). */
export const DIAGNOSTICS_PATH = '/_diag';

/** Hashing first makes the comparison constant-time whatever the lengths (one-shot: no Hash object per request). */
const sha256 = (value: string) => hash('sha256', value, 'buffer');
/** The configured token's hash, computed once rather than on every request that sends one. */
let expectedHash: { token: string; hash: Buffer } | undefined;

function tokenMatches(sent: string | undefined, expected: string): boolean {
  if (sent === undefined) return false;
  if (expectedHash?.token !== expected) expectedHash = { token: expected, hash: sha256(expected) };
  return timingSafeEqual(sha256(sent), expectedHash.hash);
}

export function diagnosticsAllowed(config: Config, req: Request): boolean {
  return config.diagnosticsToken !== undefined && tokenMatches(req.get(DIAGNOSTICS_HEADER), config.diagnosticsToken);
}

export function createDiagnosticsRouter(config: Config): Router {
  const router = Router();
  // Without the token, leave the router: the request goes on to the pages and then the 404.
  router.use((req, res, next) => {
    if (!diagnosticsAllowed(config, req)) return next('router');
    res.locals.route = req.baseUrl + req.path;
    next();
  });
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
