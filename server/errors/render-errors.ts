// The errors the host itself raises around a page's render. Only the first two end a render
// early; a client that leaves is never a failure of ours and never logged as one.

/** The render outlived the stream timeout: pending boundaries are sent as client-rendered. */
export class StreamTimeoutError extends Error {
  constructor(ms: number) {
    super(`The render did not finish within the stream timeout of ${ms} ms`);
    this.name = 'StreamTimeoutError';
  }
}

/** The client went away; not a failure of ours, never logged as one. */
export class ClientAbortError extends Error {
  constructor() {
    super('The client closed the connection before the response was complete');
    this.name = 'ClientAbortError';
  }
}

/** A loader may redirect only within this site: anything else would be an open redirect. */
export class CrossOriginRedirectError extends Error {
  constructor(location: string) {
    super(`A loader redirected to another origin: ${location.slice(0, 200)}`);
    this.name = 'CrossOriginRedirectError';
  }
}
