import { STATUS_CODES } from 'node:http';

// One base for every error the host raises itself (Hono's HTTPException, Fastify's coded
// errors): a `status` (finalhandler's rule reads it, http-error.ts), whether its message may be
// shown (`expose`, below 500), the headers its response must carry, and a `detail` the failure
// line keeps but the digest leaves out. The app's own throws are whatever they are.

export interface HostErrorOptions {
  cause?: unknown;
  headers?: Record<string, string>;
  /** Per-occurrence detail (a refused target, say): logged, never hashed (fingerprint.ts). */
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
