import { STATUS_CODES } from 'node:http';
import { readProperty } from './thrown-value.ts';

/** An expected failure with the status it deserves (404, 400, 405, 413...). */
export class HttpError extends Error {
  readonly status: number;
  /** Headers the response must carry, e.g. `Allow` on a 405 (RFC 9110 §15.5.6). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, message?: string, options?: { headers?: Record<string, string>; cause?: unknown }) {
    // An expected 4xx is described by its status and reason, never by where it was thrown: its
    // stack is not captured (that was a tenth of the 404 path's CPU time). 5xx keep theirs.
    const stackTraceLimit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    try {
      super(message ?? STATUS_CODES[status] ?? 'Error', { cause: options?.cause });
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.name = 'HttpError';
    this.status = status;
    this.headers = options?.headers ?? {};
  }
}

/** finalhandler's rule: the error's own status when it is 400–599, else 500. */
export function statusOf(err: unknown): number {
  // Read without throwing: a getter or a Proxy on a thrown object must not fail the handler.
  for (const candidate of [readProperty(err, 'status'), readProperty(err, 'statusCode')]) {
    if (typeof candidate === 'number' && Number.isInteger(candidate) && candidate >= 400 && candidate <= 599) {
      return candidate;
    }
  }
  return 500;
}

/**
 * The message a client may see: for a 4xx, ours or one its author marked safe to show
 * (`expose`, the http-errors convention body-parser follows); otherwise the bare status text.
 */
export function publicMessage(err: unknown, status: number): string {
  if (status < 500 && err instanceof Error && (err instanceof HttpError || readProperty(err, 'expose') === true)) {
    const message = readProperty(err, 'message');
    if (typeof message === 'string') return message;
  }
  return STATUS_CODES[status] ?? 'Error';
}
