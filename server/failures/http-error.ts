import { STATUS_CODES } from 'node:http';
import { HostError, type HostErrorOptions } from './host-error.ts';
import { isInstance, readProperty } from './thrown-value.ts';

// Expected failures (404, 400, 405, 413...) and the host's own 5xx: `status`, `expose` (true
// below 500: the message may be shown) and any `headers` the response must carry, the shape
// Express, finalhandler and body-parser agree on (host-error.ts).

/** A status the host answers with; its type in the log is `HttpError`, whatever the status. */
export class HttpError extends HostError {
  override name = 'HttpError';
}

/** Never throws, whatever was thrown (a Proxy, a getter): thrown-value.ts's isInstance. */
export const isHostError = (value: unknown): value is HostError => isInstance(value, HostError);

/** An expected failure with the status it deserves; `headers` go on the response. */
export function httpError(status: number, message?: string, options: HostErrorOptions = {}): HttpError {
  return new HttpError(status, message ?? STATUS_CODES[status] ?? 'Error', options);
}

/** 405 with the methods the resource does allow (RFC 9110 §15.5.6). */
export function methodNotAllowed(method: string, allow: string): HttpError {
  return httpError(405, `${method} is not allowed here`, { headers: { Allow: allow } });
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
 * The message a client may see: for a 4xx, one its author marked safe to show (`expose`, which
 * HostError sets below 500, as http-errors and body-parser do); otherwise the bare status text.
 */
export function publicMessage(err: unknown, status: number): string {
  if (status < 500 && err instanceof Error && readProperty(err, 'expose') === true) {
    const message = readProperty(err, 'message');
    if (typeof message === 'string') return message;
  }
  return STATUS_CODES[status] ?? 'Error';
}
