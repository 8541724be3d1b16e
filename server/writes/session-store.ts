// Where server-held sessions live (./session.ts): the cookie carries a signed id only, and the
// session's data is kept here under it, so a sign-out deletes it for good (a replayed cookie finds
// nothing) and a user's sessions can all be dropped at once. Three stores, one interface: the
// fleet's Redis (server/fleet/redis-sessions.ts), the app's database (server/data/database-sessions.ts),
// or this process's memory (below). docs/security.md, "Writes".
import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import { LINE_LEVEL } from '../observe/log-levels.ts';

/** A session's record: its data (React Router's, flash values included) and whom it is signed in as. */
export interface SessionRecord {
  data: Record<string, unknown>;
  user: string | undefined;
}

export interface SessionStore {
  /** Said at boot: where sessions are kept. */
  readonly kind: 'redis' | 'database' | 'memory';
  /** The record, or undefined when there is none (never made, deleted, or past its time). */
  read(id: string): Promise<SessionRecord | undefined>;
  /** Writes the record, kept for `ttlMs` from now. */
  write(id: string, record: SessionRecord, ttlMs: number): Promise<void>;
  remove(id: string): Promise<void>;
  /** Every session of `user`: "sign out everywhere". */
  removeUser(user: string): Promise<void>;
}

/**
 * At most this many sessions in one process's memory: past it the one closest to its end goes
 * first, so a flood of new visitors cannot grow the heap without bound.
 */
export const MEMORY_SESSIONS_CAP = 100_000;

/** Sessions in this process's memory: tests, and one process without Redis or a database. */
export function createMemorySessionStore(now: () => number = Date.now, cap = MEMORY_SESSIONS_CAP): SessionStore {
  const records = new Map<string, SessionRecord & { expiresAt: number }>();
  const live = (id: string) => {
    const record = records.get(id);
    if (record !== undefined && record.expiresAt <= now()) records.delete(id);
    return records.get(id);
  };
  return {
    kind: 'memory',
    read(id) {
      const record = live(id);
      return Promise.resolve(record && { data: record.data, user: record.user });
    },
    write(id, record, ttlMs) {
      records.delete(id); // insertion order is expiry order: every write lasts ttlMs from now
      if (records.size >= cap) records.delete(records.keys().next().value!);
      records.set(id, { ...record, expiresAt: now() + ttlMs });
      return Promise.resolve();
    },
    remove(id) {
      records.delete(id);
      return Promise.resolve();
    },
    removeUser(user) {
      for (const [id, record] of records) if (record.user === user) records.delete(id);
      return Promise.resolve();
    },
  };
}

/** Said once at boot: where a signed-in visitor's session lives, and whether another replica can read it (a warning in production if not). */
export function sayWhereSessionsAre(config: Pick<Config, 'postgres' | 'isProduction'>, kind: SessionStore['kind'], logger: Logger): void {
  const shared = kind === 'redis' || (kind === 'database' && config.postgres !== undefined);
  logger[shared || !config.isProduction ? LINE_LEVEL.lifecycle : LINE_LEVEL.lifecycleWarning](
    { sessions: kind },
    shared
      ? `sessions kept in ${kind === 'redis' ? 'Redis (REDIS_URL)' : 'PostgreSQL (DATABASE_URL)'}: every replica reads them`
      : `sessions kept in ${kind === 'database' ? "this replica's SQLite file" : "this process's memory"}: with more than one replica, set REDIS_URL or DATABASE_URL`,
  );
}
