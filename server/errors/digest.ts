import { createHmac, randomBytes } from 'node:crypto';

/**
 * The digest groups occurrences of one failure: a keyed hash (HMAC-SHA-256) of its type,
 * message and stack, so the same failure in the same release gives the same digest on every
 * replica sharing DIGEST_KEY, and the digest reveals nothing of the message. 96 bits make
 * collisions practically impossible (Next.js uses 32); base64url keeps it URL-safe.
 */
const DIGEST_BYTES = 12;

export type Digester = (err: unknown) => string;

/** Stack frames carry `file:line:col`; the same code path gives the same frames. */
function fingerprint(err: unknown): string {
  if (err instanceof Error) {
    const causes: string[] = [];
    for (let cause = err.cause, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
      causes.push(fingerprint(cause));
    }
    return [err.name, err.message, err.stack ?? '', ...causes].join('\n');
  }
  return `${typeof err}\n${String(err)}`;
}

/** Without a configured key, one random key per process: digests then group within it only. */
const PROCESS_KEY = randomBytes(32).toString('hex');

export function createDigester(key: string | undefined): Digester {
  const secret = key ?? PROCESS_KEY;
  return (err) => createHmac('sha256', secret).update(fingerprint(err)).digest().subarray(0, DIGEST_BYTES).toString('base64url');
}
