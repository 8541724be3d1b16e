// Server-held sessions (server/writes/session-store.ts) in the app's database, when there is no
// shared Redis: PostgreSQL's for every replica, or the replica's SQLite file, which a restart
// keeps (a dev server's sessions outlive it). One row a session, with its user for "sign out
// everywhere" and its end; rows past their end are read as none and swept as writes come.
import type { Kysely } from 'kysely';
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

/** Expired rows are deleted once every this many writes: one indexed delete, never a scan a request waits on. */
const SWEEP_EVERY_WRITES = 100;

export function createDatabaseSessionStore(database: Database, now: () => number = Date.now): SessionStore {
  const db = database as Kysely<SessionTables>;
  let writes = 0;
  return {
    kind: 'database',
    async read(id) {
      const row = await db
        .selectFrom('host_sessions')
        .select(['data', 'user_id'])
        .where('id', '=', id)
        .where('expires_at', '>', now())
        .executeTakeFirst();
      if (row === undefined) return undefined;
      return { data: JSON.parse(row.data) as SessionRecord['data'], user: row.user_id ?? undefined };
    },
    async write(id, { data, user }, ttlMs) {
      const values = { data: JSON.stringify(data), user_id: user ?? null, expires_at: now() + ttlMs };
      await db
        .insertInto('host_sessions')
        .values({ id, ...values })
        .onConflict((conflict) => conflict.column('id').doUpdateSet(values))
        .execute();
      if ((writes += 1) % SWEEP_EVERY_WRITES === 0) await db.deleteFrom('host_sessions').where('expires_at', '<=', now()).execute();
    },
    async remove(id) {
      await db.deleteFrom('host_sessions').where('id', '=', id).execute();
    },
    async removeUser(user) {
      await db.deleteFrom('host_sessions').where('user_id', '=', user).execute();
    },
  };
}
