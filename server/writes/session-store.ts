// Where server-held sessions live (./session.ts): the cookie carries a signed id only, and the
// session's data is kept here under it, so a sign-out deletes it for good (a replayed cookie finds
// nothing) and a user's sessions can all be dropped at once. Three stores, one contract: the
// fleet's Redis (server/fleet/redis-sessions.ts), the app's database
// (server/data/database-sessions.ts), or this process's memory (./memory-sessions.ts).
// docs/security.md, "Writes".
import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import { LINE_LEVEL } from '../observe/log-levels.ts';
import { HostError } from '../failures/errors.ts';

/** A session's record: its data (React Router's, flash values included) and whom it is signed in as. */
export interface SessionRecord {
  data: Record<string, unknown>;
  user: string | undefined;
}

/**
 * Reads fail open: a store that cannot answer reads as no session (its visitor is signed out for
 * as long). Writes fail closed: a sign-in, a change or a sign-out the store could not keep
 * throws a SessionStoreUnavailableError (503), so none of them looks done when it is not.
 */
export interface SessionStore {
  /** Said at boot: where sessions are kept. */
  readonly kind: 'redis' | 'database' | 'memory';
  /** The record, or undefined when there is none (never made, deleted, or past its time). */
  read(id: string): Promise<SessionRecord | undefined>;
  /** A new session's record, kept for `ttlMs`. */
  create(id: string, record: SessionRecord, ttlMs: number): Promise<void>;
  /**
   * An existing session's record, kept `ttlMs` from now; nothing when it is gone (deleted, or
   * past its time), so a request that read the session before a sign-out never brings it back.
   */
  update(id: string, record: SessionRecord, ttlMs: number): Promise<void>;
  remove(id: string): Promise<void>;
  /** Every session of `user`: "sign out everywhere". */
  removeUser(user: string): Promise<void>;
}

export class SessionStoreUnavailableError extends HostError {
  override name = 'SessionStoreUnavailableError';
  constructor(what: string) {
    // Stackless: one digest for one outage, whatever route met it.
    super(503, `session store unavailable: ${what}`, { stackless: true });
  }
}

/** Said once at boot: where a signed-in visitor's session lives, and whether another replica can read it (a warning in production if not). */
export function sayWhereSessionsAre(
  config: Pick<Config, 'postgres' | 'isProduction' | 'sessionSecrets'>,
  kind: SessionStore['kind'],
  logger: Logger,
): void {
  const sharedStore = kind === 'redis' || (kind === 'database' && config.postgres !== undefined);
  // Another replica reads the session only with the same key to check its id's signature too.
  const shared = sharedStore && config.sessionSecrets !== undefined;
  const where =
    kind === 'redis'
      ? 'Redis (REDIS_URL)'
      : kind === 'memory'
        ? "this process's memory"
        : config.postgres === undefined
          ? "this replica's SQLite file"
          : 'PostgreSQL (DATABASE_URL)';
  const why = shared
    ? 'every replica reads them'
    : sharedStore
      ? 'without SESSION_SECRET each replica signs ids with its own key, so another replica reads none of them'
      : 'with more than one replica, set REDIS_URL or DATABASE_URL';
  logger[shared || !config.isProduction ? LINE_LEVEL.lifecycle : LINE_LEVEL.lifecycleWarning](
    { sessions: kind },
    `sessions kept in ${where}: ${why}`,
  );
}
