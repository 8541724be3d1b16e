import { HostError } from './host-error.ts';

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
