// The database the host opens once per process (server/data/database.ts) and hands to loaders
// and actions as `context.db`, and the migrations an app declares for it
// (client/migrations.server.ts; docs/data.md). One API, two engines: Kysely, a typed query
// builder (https://kysely.dev), over the replica's own SQLite file (node:sqlite) by default, or
// over PostgreSQL when DATABASE_URL is set, so that every replica shares the data.
import type { Kysely } from 'kysely';

/**
 * The app's database: asynchronous, as PostgreSQL has no synchronous client. Typed per store:
 * `const db: Kysely<GuestbookTables> = context.db` (client/pages/guestbook/store.server.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each app narrows it to its own tables, as above
export type Database = Kysely<any>;

/** Which engine runs it, for the few things the builder cannot say once (an auto-assigned id: docs/data.md). */
export type DatabaseEngine = 'sqlite' | 'postgres';

/**
 * One step of the app's schema, written once with Kysely's schema builder, which says it in
 * each engine's SQL. The list is ordered and only ever appended to: the database records each
 * step it ran by name, and a newer release runs the rest at start-up, each in its own transaction.
 */
export interface Migration {
  /** The step's identity (recorded once it ran) and what the boot's line says if it fails: never renamed. */
  name: string;
  up(db: Database, engine: DatabaseEngine): Promise<void>;
}
