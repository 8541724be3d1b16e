// Server-held sessions (server/writes/session-store.ts) in the app's database, when there is no
// shared Redis: PostgreSQL's for every replica, or the replica's SQLite file, which a restart
// keeps (a dev server's sessions outlive it). One row a session, with its user for "sign out
// everywhere" and its end; rows past their end are read as none, and swept now and then.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database, Migration } from '../../shared/database.ts';
import type { SessionRecord, SessionStore } from '../writes/session-store.ts';

/** The host's own steps, recorded apart from the app's (./migrations.ts, MigrationSet). */
export const HOST_MIGRATIONS_TABLE = 'host_migration';
export const HOST_MIGRATIONS: readonly Migration[] = [
  {
    name: 'host sessions',
    up: async (db) => {
      await db.schema
        .createTable('host_sessions')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'text')
        .addColumn('data', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'bigint', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('host_sessions_by_user').on('host_sessions').column('user_id').execute();
      await db.schema.createIndex('host_sessions_by_end').on('host_sessions').column('expires_at').execute();
    },
  },
];

interface SessionTables {
  host_sessions: { id: string; user_id: string | null; data: string; expires_at: number };
}

/** Expired rows are swept once every this many writes, off the request's path. */
const SWEEP_EVERY_WRITES = 100;
/** Rows one sweep deletes at most: a short statement, however many ended since the last. */
const SWEEP_BATCH = 1_000;

export function createDatabaseSessionStore(database: Database, logger?: Logger, now: () => number = Date.now): SessionStore {
  const db = database as Kysely<SessionTables>;
  let writes = 0;
  /** Not awaited: a request never waits on it, and its failure fails no request (one debug line). */
  const sweep = () => {
    const ended = db.selectFrom('host_sessions').select('id').where('expires_at', '<=', now()).limit(SWEEP_BATCH);
    db.deleteFrom('host_sessions')
      .where('id', 'in', ended)
      .execute()
      .catch((error: unknown) => logger?.debug({ error: { message: String(error) } }, 'ended sessions not swept'));
  };
  const row = ({ data, user }: SessionRecord, ttlMs: number) => ({
    data: JSON.stringify(data),
    user_id: user ?? null,
    expires_at: now() + ttlMs,
  });
  const wrote = () => {
    if ((writes += 1) % SWEEP_EVERY_WRITES === 0) sweep();
  };
  return {
    kind: 'database',
    async read(id) {
      const found = await db
        .selectFrom('host_sessions')
        .select(['data', 'user_id'])
        .where('id', '=', id)
        .where('expires_at', '>', now())
        .executeTakeFirst();
      if (found === undefined) return undefined;
      return { data: JSON.parse(found.data) as SessionRecord['data'], user: found.user_id ?? undefined };
    },
    async create(id, record, ttlMs) {
      await db
        .insertInto('host_sessions')
        .values({ id, ...row(record, ttlMs) })
        .execute();
      wrote();
    },
    async update(id, record, ttlMs) {
      // Only a session still there: one deleted by a sign-out meanwhile stays deleted.
      await db.updateTable('host_sessions').set(row(record, ttlMs)).where('id', '=', id).where('expires_at', '>', now()).execute();
      wrote();
    },
    async remove(id) {
      await db.deleteFrom('host_sessions').where('id', '=', id).execute();
    },
    async removeUser(user) {
      await db.deleteFrom('host_sessions').where('user_id', '=', user).execute();
    },
  };
}
