// A route's failure as its boundary shows it. The server records the failure (status →
// digest → one log line → Sentry) and hands the boundary only this plain, serializable object,
// the same in the server's HTML, in the hydration data and in a navigation's data response.
import { data, isRouteErrorResponse } from 'react-router';
import type { OnError } from '../../../shared/page-seam.ts';

export interface RouteFailure {
  readonly routeFailure: true;
  readonly status: number;
  /** Server failures (5xx) only: what the page shows and the log line carries. */
  readonly digest?: string;
  /** Development only: the message and stack (the host never sends it in production). */
  readonly detail?: string;
  /** A 4xx the app threw on purpose with a message (`notFound('No such entry')`): it may be shown. */
  readonly message?: string;
}

export function routeFailure(status: number, digest: string | undefined, detail?: string, message?: string): RouteFailure {
  const failure: RouteFailure = digest === undefined ? { routeFailure: true, status } : { routeFailure: true, status, digest };
  return { ...failure, ...(detail !== undefined && { detail }), ...(message !== undefined && { message }) };
}

/** What a 4xx the app threw says to the user: a `data('…', { status })` text, or a message it may expose. Never a 5xx's. */
export function intendedMessage(error: unknown, status: number): string | undefined {
  if (status >= 500) return undefined;
  if (isRouteErrorResponse(error)) return typeof error.data === 'string' ? error.data : undefined;
  const { expose, message } = (error ?? {}) as { expose?: unknown; message?: unknown };
  return expose === true && typeof message === 'string' ? message : undefined;
}

export function isRouteFailure(value: unknown): value is RouteFailure {
  return typeof value === 'object' && value !== null && (value as { routeFailure?: unknown }).routeFailure === true;
}

/**
 * For loaders: the page does not exist (404, `noindex`), shown by the nearest boundary; a
 * message is for the boundary to show (useRouteFailure()).
 */
export function notFound(message?: string): never {
  throw data(message ?? null, { status: 404 });
}

/**
 * What `badRequest()` throws: the host reads `status` and, below 500, shows the message it is
 * told it may (`expose`), as it does for any HTTP error (finalhandler's and http-errors' shape).
 */
export class BadRequestError extends Error {
  readonly status = 400;
  readonly expose = true;
  constructor(message: string) {
    // Described by its status and message, never by where it was thrown (as the host's own 4xx).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.name = 'BadRequestError';
  }
}

/** For loaders: the request is malformed (400), with a message the client may see. */
export function badRequest(message: string): never {
  throw new BadRequestError(message);
}

/** True for what `notFound()` throws, as React Router hands it on. */
export function isNotFound(error: unknown): boolean {
  return isRouteErrorResponse(error) && error.status === 404;
}

/** A response's status: the worst of its recorded failures (React Router would say 500 for any thrown value). */
export function worstStatus(failures: Record<string, RouteFailure> | null, fallback: number): number {
  const statuses = Object.values(failures ?? {}).map((failure) => failure.status);
  return statuses.length > 0 ? Math.max(...statuses) : fallback;
}

/** The host records a loader's failure; the boundary (or the data response) gets what it may show. */
export function loaderFailure(onError: OnError) {
  return (error: unknown): RouteFailure => {
    const { status, digest, detail } = onError(error, 'loader');
    return routeFailure(status, digest, detail, intendedMessage(error, status));
  };
}
