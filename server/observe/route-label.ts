import type { Request, Response } from 'express';

// The bounded label every line and metric gives a request's route: read by the access line,
// the failure recorder and the metrics alike, so none of them imports another for it.

/** The route label of built files on the access line (logged at debug when served: access-log.ts). */
export const ASSETS_ROUTE = 'assets';
/** Liveness and readiness (server/edge/health.ts): the paths every probe asks, every few seconds forever. */
export const HEALTH_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);
/**
 * Their label in the metrics: a probe's answers are the orchestrator's, not a visitor's, and the
 * 5xx ratio and latency rules leave them out (deploy/prometheus/alerts.yaml), as they leave out assets.
 */
export const HEALTH_ROUTE = 'health';

/** The Express route that matched, with its mount path; Express types `req.route` as any. */
export function expressRouteOf(req: Request): string | undefined {
  const route: unknown = req.route;
  const path: unknown = typeof route === 'object' && route !== null ? (route as { path?: unknown }).path : undefined;
  return typeof path === 'string' ? req.baseUrl + path : undefined;
}

/** A route label for the log: the page or Express route that handled the request. */
export function routeOf(req: Request, res: Response): string {
  return res.locals.route ?? expressRouteOf(req) ?? 'unmatched';
}
