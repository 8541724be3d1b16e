import { STATUS_CODES } from 'node:http';
import { HostError } from './errors.ts';
import { isInstance, readProperty } from './thrown-value.ts';

// What a thrown value's status is and what a client may be told of it: finalhandler's rules,
// read without ever throwing (thrown-value.ts), for the host's own errors (errors.ts) and the
// app's alike.

/** Never throws, whatever was thrown (a Proxy, a getter): thrown-value.ts's isInstance. */
export const isHostError = (value: unknown): value is HostError => isInstance(value, HostError);

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
