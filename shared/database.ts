// The embedded database the host opens once per process (server/writes/database.ts) and hands
// to loaders and actions as `context.db`, and the migrations an app declares for it
// (client/migrations.server.ts; docs/data.md). Node's own SQLite (node:sqlite): no native
// package to build, and the file lives with the replica.
import type { DatabaseSync } from 'node:sqlite';

/** One SQLite connection, synchronous (node:sqlite's DatabaseSync). */
export type Database = DatabaseSync;

/**
 * One step of the app's schema. The list is ordered and only ever appended to: a database at
 * `PRAGMA user_version` n has run the first n steps, and a newer release runs the rest at
 * start-up, each in its own transaction with its new version.
 */
export interface Migration {
  /** Said in the one line that stops the boot if the step fails. */
  name: string;
  /** SQL (several statements allowed), or a function for a step SQL alone cannot say. */
  up: string | ((db: Database) => void);
}
