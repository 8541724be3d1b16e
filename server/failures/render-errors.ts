// The errors the host itself raises around a page's render. Only the first two end a render
// early; a client that leaves is never a failure of ours and never logged as one.

/** The render outlived the stream timeout: pending boundaries are sent as client-rendered. */
export class StreamTimeoutError extends Error {
  constructor(ms: number) {
    super(`The render did not finish within the stream timeout of ${ms} ms`);
    this.name = 'StreamTimeoutError';
  }
}

/**
 * A route's loaders did not settle within the stream timeout and its grace, although their
 * signal had fired: nothing was sent yet, so the answer is a 504 with the failure's digest.
 */
export class LoaderTimeoutError extends Error {
  readonly status = 504;
  constructor(route: string, ms: number) {
    super(`The loaders of ${route} did not settle within the stream timeout of ${ms} ms`);
    this.name = 'LoaderTimeoutError';
  }
}

/** The client went away; not a failure of ours, never logged as one. */
export class ClientAbortError extends Error {
  constructor() {
    super('The client closed the connection before the response was complete');
    this.name = 'ClientAbortError';
  }
}

/** Enough of a refused target to recognise it in the failure line. */
const MAX_SHOWN_TARGET = 200;

/**
 * A loader may redirect only within this site: anything else would be an open redirect. One
 * failure whatever the target or the route (both are on its line), so one digest: the target
 * is a `detail` (not hashed), and it has no stack: where the host refused it says nothing.
 */
export class CrossOriginRedirectError extends Error {
  readonly detail: string;
  constructor(location: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super('A loader redirected to another origin, which is refused');
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.name = 'CrossOriginRedirectError';
    this.detail = `target: ${location.slice(0, MAX_SHOWN_TARGET)}`;
  }
}
