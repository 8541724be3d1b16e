// The app's schema, brought up to date at start-up: SQLite keeps the number of steps a file has
// run in its header (PRAGMA user_version, https://sqlite.org/pragma.html#pragma_user_version),
// so a newer release runs only the steps after it. Each step and its new version commit
// together, so a failed step leaves the file at the version before it, never half-migrated.
import type { Database, Migration } from '../../shared/database.ts';
import { HostError } from '../failures/errors.ts';

/** The database cannot be used: the boot stops with this one line (never a stack). */
export class DatabaseError extends HostError {
  override name = 'DatabaseError';
  constructor(message: string, cause?: unknown) {
    super(500, message, { stackless: true, cause });
  }
}

/** The first line of what a failed step threw: the boot's message stays one line. */
function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

export function schemaVersion(db: Database): number {
  return Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
}

/** Runs the steps a file has not run yet; returns the version it had. `where` names the file in messages. */
export function migrate(db: Database, migrations: readonly Migration[], where: string): number {
  const from = schemaVersion(db);
  if (from > migrations.length) {
    // A rollback onto a file a newer release migrated: its code may not read the new schema.
    throw new DatabaseError(
      `${where} is at schema version ${from}, newer than this release's ${migrations.length} migrations: deploy that release again, or restore a backup from before it`,
    );
  }
  for (let at = from; at < migrations.length; at++) {
    const step = migrations[at]!;
    // IMMEDIATE takes the write lock before the first statement: no other writer sees the step half done.
    db.exec('BEGIN IMMEDIATE');
    try {
      if (typeof step.up === 'string') db.exec(step.up);
      else step.up(db);
      // A PRAGMA takes no bound parameters; `at + 1` is this loop's own integer.
      db.exec(`PRAGMA user_version = ${at + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw new DatabaseError(`${where}: migration ${at + 1} of ${migrations.length} ("${step.name}") failed: ${firstLine(error)}`, error);
    }
  }
  return from;
}
