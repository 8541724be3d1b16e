import type { BodyLimits } from '../../shared/body-limits.ts';
import { ConfigError, integer, type Env } from './config-values.ts';

// The limits of an action's body (docs/forms.md, "Body limits"): the defaults, from the
// environment at boot, and a route's own (its server module's `bodyLimits` export), each within
// the host's ceiling. server/writes/request-body.ts holds a body to them.

export type { BodyLimits };

/** The defaults, each a variable of the environment (docs/configuration.md). */
export const DEFAULT_BODY_LIMITS: BodyLimits = Object.freeze({
  /** A multipart upload: the form and its files together. */
  maxBytes: 1_048_576,
  /** A urlencoded form or JSON document a person typed: far below this. */
  maxTextBytes: 65_536,
  /** What the upload helper (`context.parseForm`) keeps of one file; a larger one is marked, not refused. */
  maxFileBytes: 512 * 1_024,
  maxFiles: 4,
  /** Text fields (and query-style pairs) in one form: a long form has dozens. */
  maxFields: 256,
  /** One multipart text field: as much as a whole urlencoded form. */
  maxFieldBytes: 65_536,
});

/**
 * A form or JSON document is held in memory whole and parsed by the action: 16 MiB is far past
 * anything a person types. 16 MiB must also arrive within BODY_TIMEOUT_MS (at most 19 s,
 * server/config/config.ts): 7 Mbit/s, a common upload.
 */
export const MAX_BODY_BYTES = 16 * 1_048_576;
/**
 * A multipart upload streams to disk (server/writes/form-uploads.ts), so memory does not bound it;
 * BODY_TIMEOUT_MS does: 512 MiB in 19 s is 226 Mbit/s, a fast office line. Larger files belong in
 * an upload straight to storage (a signed URL), not through a replica.
 */
export const MAX_UPLOAD_BYTES = 512 * 1_048_576;
/**
 * Fields and files in one form. Many fields make a parser's work grow past their bytes (the
 * hash-flooding of CVE-2011-4885, after which PHP capped `max_input_vars` at 1,000 by default).
 */
export const MAX_FORM_PARTS = 1_000;
/** The smallest cap of a whole body: a multipart body's boundaries and part headers alone take hundreds of bytes. */
const MIN_BODY_BYTES = 1_024;

/** Each limit's variable and its bounds: [name, least, most]. */
const BOUNDS: Record<keyof BodyLimits, [string, number, number]> = {
  maxBytes: ['BODY_MAX_BYTES', MIN_BODY_BYTES, MAX_UPLOAD_BYTES],
  maxTextBytes: ['BODY_MAX_TEXT_BYTES', MIN_BODY_BYTES, MAX_BODY_BYTES],
  maxFileBytes: ['BODY_MAX_FILE_BYTES', 1, MAX_UPLOAD_BYTES],
  maxFiles: ['BODY_MAX_FILES', 0, MAX_FORM_PARTS],
  maxFields: ['BODY_MAX_FIELDS', 1, MAX_FORM_PARTS],
  maxFieldBytes: ['BODY_MAX_FIELD_BYTES', 1, MAX_BODY_BYTES],
};

const KEYS = Object.keys(BOUNDS) as (keyof BodyLimits)[];

/** BODY_MAX_* from the environment: each within its bounds, and a file's limit within the whole body's. */
export function bodyLimits(env: Env): BodyLimits {
  const limits = Object.fromEntries(
    KEYS.map((key) => {
      const [name, least, most] = BOUNDS[key];
      return [key, integer(env, name, DEFAULT_BODY_LIMITS[key], least, most)];
    }),
  ) as unknown as BodyLimits;
  // A file limit over the body's cap never applies: the body is refused first (413).
  if (limits.maxFileBytes > limits.maxBytes) {
    const raw = env.BODY_MAX_FILE_BYTES ?? String(limits.maxFileBytes);
    throw new ConfigError(
      'BODY_MAX_FILE_BYTES',
      raw,
      `at most BODY_MAX_BYTES (${limits.maxBytes}): a larger file is refused with its body`,
    );
  }
  return Object.freeze(limits);
}

/**
 * A route's own limits over the defaults. Its module says what it takes; a value that is not
 * an integer within the ceiling, or a name the host does not know, is the route's bug: an
 * Error naming the route, answered as the host's 500 with its digest the first time it posts.
 */
export function routeBodyLimits(defaults: BodyLimits, own: unknown, routeId: string): BodyLimits {
  if (own === undefined) return defaults;
  const bad = (what: string) => new Error(`Route "${routeId}" exports bodyLimits ${what}`);
  if (typeof own !== 'object' || own === null) throw bad('that is not an object');
  const given = own as Record<string, unknown>;
  for (const [key, value] of Object.entries(given)) {
    const bounds = BOUNDS[key as keyof BodyLimits] as [string, number, number] | undefined;
    if (bounds === undefined) throw bad(`with an unknown limit "${key}" (known: ${KEYS.join(', ')})`);
    const [, least, most] = bounds;
    if (!Number.isInteger(value) || (value as number) < least || (value as number) > most) {
      throw bad(`with ${key}=${String(value)}: expected an integer from ${least} to ${most}`);
    }
  }
  const limits = { ...defaults, ...(given as Partial<BodyLimits>) };
  if (given.maxFileBytes !== undefined && limits.maxFileBytes > limits.maxBytes) {
    throw bad(`with maxFileBytes=${limits.maxFileBytes} over its maxBytes (${limits.maxBytes}): raise maxBytes too`);
  }
  return Object.freeze(limits);
}
