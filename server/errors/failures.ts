import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Digester } from './digest.ts';
import { HttpError, statusOf } from './http-error.ts';
import { serializeError } from './serialize-error.ts';
import { pathOf } from '../url-path.ts';
import type { FailureKind, Metrics } from '../metrics.ts';

// error → status → digest → one log line → report. Every path that meets a failure (the
// terminal middleware, React's onError, process faults) comes here, and each error object is
// logged and reported once however many paths meet it.

export interface Failure {
  status: number;
  /** Only server failures (5xx) get a digest: a 404 is not something to look up. */
  digest: string | undefined;
}

export interface FailureReport extends Failure {
  error: unknown;
  reqId: string;
  method: string;
  path: string;
  route: string;
}

/** Where failures go besides the log (Sentry); only 5xx are reported. */
export type Reporter = (report: FailureReport & { digest: string }) => void;

export interface FailureRecorder {
  /** `kind` says where it happened, for metrics: a route handler unless told otherwise. */
  record(error: unknown, req: Request, res: Response, kind?: FailureKind): Failure;
}

/** A route label for the log: the page or Express route that handled the request. */
export function routeOf(req: Request, res: Response): string {
  const label = res.locals.route as string | undefined;
  const path = req.route?.path as string | undefined;
  return label ?? (path === undefined ? 'unmatched' : req.baseUrl + path);
}

/**
 * Errors already recorded for this response. Per response, not per app: an error object
 * shared between requests (a cached rejected promise, say) is a failure of each of them.
 */
function recordedFor(res: Response): WeakMap<object, Failure> {
  return ((res.locals.failures as WeakMap<object, Failure> | undefined) ??= new WeakMap());
}

export function createFailureRecorder(deps: { digester: Digester; logger: Logger; reporter?: Reporter; metrics?: Pick<Metrics, 'failure'> }): FailureRecorder {
  return {
    record(error, req, res, kind = 'route') {
      const recorded = recordedFor(res);
      const key = typeof error === 'object' && error !== null ? error : undefined;
      const known = key && recorded.get(key);
      if (known) return known;
      const status = statusOf(error);
      const failure: Failure = { status, digest: status >= 500 ? deps.digester(error) : undefined };
      if (key) recorded.set(key, failure);
      res.locals.digest ??= failure.digest;

      const where = { ...failure, reqId: String(req.id), method: req.method, path: pathOf(req.originalUrl), route: routeOf(req, res) };
      const fields = {
        ...where,
        headersSent: res.headersSent,
        // An expected 4xx is fully described by its type and message; its stack is noise.
        error: status < 500 && error instanceof HttpError ? { type: error.name, message: error.message } : serializeError(error),
      };
      if (status >= 500) deps.logger.error(fields, 'request failed');
      else deps.logger.info(fields, 'request rejected');
      deps.metrics?.failure(kind, status);
      if (failure.digest !== undefined) deps.reporter?.({ ...where, error, digest: failure.digest });
      return failure;
    },
  };
}
