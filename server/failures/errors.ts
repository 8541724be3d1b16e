import { STATUS_CODES } from 'node:http';
import { NOT_FOUND_MESSAGE } from '../../shared/messages.ts';

// One base for every error the host raises itself (Hono's HTTPException, Fastify's coded
// errors): a `status` (finalhandler's rule reads it, error-status.ts), whether its message may be
// shown (`expose`, below 500), the headers its response must carry, and a `detail` the failure
// line keeps but the digest leaves out. The app's own throws are whatever they are.

export interface HostErrorOptions {
  cause?: unknown;
  headers?: Record<string, string>;
  /** Per-occurrence detail (a refused target, say): logged, never hashed (digest.ts). */
  detail?: string;
  /**
   * No stack: where the host raised it says nothing about the failure, and a digest made of
   * its type and message survives edits to the host's own files. 4xx never have one.
   */
  stackless?: boolean;
}

export class HostError extends Error {
  override name = 'HostError';
  readonly status: number;
  readonly expose: boolean;
  readonly headers: Record<string, string> | undefined;
  readonly detail: string | undefined;

  constructor(status: number, message: string = STATUS_CODES[status] ?? 'Error', options: HostErrorOptions = {}) {
    // An expected 4xx is described by its status and reason, never by where it was thrown:
    // capturing its stack was a tenth of the 404 path's CPU time.
    const stackTraceLimit = Error.stackTraceLimit;
    if (status < 500 || options.stackless === true) Error.stackTraceLimit = 0;
    try {
      super(message, options.cause === undefined ? undefined : { cause: options.cause });
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.status = status;
    this.expose = status < 500;
    this.headers = options.headers;
    this.detail = options.detail;
  }
}

/** A status the host answers with; its type in the log is `HttpError`, whatever the status. */
export class HttpError extends HostError {
  override name = 'HttpError';
}

/** An expected failure with the status it deserves; `headers` go on the response. */
export function httpError(status: number, message?: string, options: HostErrorOptions = {}): HttpError {
  return new HttpError(status, message ?? STATUS_CODES[status] ?? 'Error', options);
}

/**
 * What no route answers: one value, made once. A 404 carries no stack and no per-request detail,
 * and nothing is written onto it (the recorder keys failures per response, recorder.ts), so every
 * unmatched request can pass the same one instead of constructing an Error each.
 */
const NOT_FOUND = httpError(404, NOT_FOUND_MESSAGE);
export const notFound = (): HttpError => NOT_FOUND;

/** 405 with the methods the resource does allow (RFC 9110 §15.5.6). */
export function methodNotAllowed(method: string, allow: string): HttpError {
  return httpError(405, `${method} is not allowed here`, { headers: { Allow: allow } });
}

// The errors the host itself raises around a page's render. Only the first two end a render
// early; a client that leaves is never a failure of ours and never logged as one.

/** The render outlived the stream timeout: pending boundaries are sent as client-rendered. */
export class StreamTimeoutError extends HostError {
  override name = 'StreamTimeoutError';
  constructor(ms: number) {
    super(500, `The render did not finish within the stream timeout of ${ms} ms`, { stackless: true });
  }
}

/**
 * A route's loaders did not settle within the stream timeout and its grace, although their
 * signal had fired: nothing was sent yet, so the answer is a 504 with the failure's digest.
 */
export class LoaderTimeoutError extends HostError {
  override name = 'LoaderTimeoutError';
  constructor(route: string, ms: number) {
    super(504, `The loaders of ${route} did not settle within the stream timeout of ${ms} ms`, { stackless: true });
  }
}

/** The client went away; not a failure of ours, never logged as one. */
export class ClientAbortError extends HostError {
  override name = 'ClientAbortError';
  constructor() {
    // 499: nginx's "client closed request"; never answered and never logged as a failure.
    super(499, 'The client closed the connection before the response was complete');
  }
}

/** Enough of a refused target to recognise it in the failure line. */
const MAX_SHOWN_TARGET = 200;

/**
 * A loader may redirect only within this site: anything else would be an open redirect. One
 * failure whatever the target or the route (both are on its line), so one digest: the target
 * is a `detail` (not hashed), and it has no stack: where the host refused it says nothing.
 */
export class CrossOriginRedirectError extends HostError {
  override name = 'CrossOriginRedirectError';
  constructor(location: string) {
    super(500, 'A loader redirected to another origin, which is refused', {
      stackless: true,
      detail: `target: ${location.slice(0, MAX_SHOWN_TARGET)}`,
    });
  }
}

/** The error page did not render in time (error-pages/error-page-cache.ts): the static fallback is sent. */
export class ErrorPageTimeoutError extends HostError {
  override name = 'ErrorPageTimeoutError';
  constructor(ms: number) {
    super(500, `The error page did not render within ${ms} ms`, { stackless: true });
  }
}
