import { createHmac, randomBytes } from 'node:crypto';
import { APP_ROOT } from './app-root.ts';
import { fingerprint } from './fingerprint.ts';
import { boundedMemo } from '../../shared/bounded-memo.ts';

/**
 * The digest groups occurrences of one failure: a keyed hash (HMAC-SHA-256) of its normalized
 * fingerprint (fingerprint.ts; the rule is in docs/errors.md, "The digest rule"), so the same failure
 * gives the same digest on every replica sharing DIGEST_KEY, and the digest reveals nothing of
 * the message. 96 bits make collisions practically impossible (Next.js uses 32); base64url keeps
 * it URL-safe.
 */
const DIGEST_BYTES = 12;

export type Digester = (err: unknown) => string;

/** Without a configured key, one random key per process: digests then group within it only. */
const PROCESS_KEY = randomBytes(32).toString('hex');

export function digestKey(key: string | undefined): string {
  return key ?? PROCESS_KEY;
}

/**
 * In an error storm one failure repeats thousands of times: its digest is remembered by
 * fingerprint instead of hashed again. Cleared when full, so memory stays bounded whatever
 * varies between failures.
 */
const MEMO_SIZE = 1_000;

export function createDigester(key: string | undefined, root: string = APP_ROOT): Digester {
  const secret = digestKey(key);
  const hash = boundedMemo(
    (print: string) => createHmac('sha256', secret).update(print).digest().subarray(0, DIGEST_BYTES).toString('base64url'),
    MEMO_SIZE,
  );
  return (err) => hash(fingerprint(err, root));
}
