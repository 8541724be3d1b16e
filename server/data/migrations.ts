// The app's schema, brought up to date at start-up by Kysely's Migrator (https://kysely.dev/docs/migrations):
// it records each step it ran by name (the kysely_migration table), so a newer release runs only
// the steps after them; each step runs in a transaction, on SQLite and PostgreSQL alike (both
// roll DDL back), so a failed step leaves the database as it was before it. On PostgreSQL the
// Migrator holds an advisory lock while it runs: replicas starting together run each step once.
import { sql, type Kysely } from 'kysely';
import { Migrator, type MigrationProvider } from 'kysely/migration';
import type { DatabaseSync } from 'node:sqlite';
import type { Database, DatabaseEngine, Migration } from '../../shared/database.ts';
import { HostError } from '../failures/errors.ts';
import { unavailability } from './availability.ts';

/** The database cannot be used: the boot stops with this one line (never a stack). */
export class DatabaseError extends HostError {
  override name = 'DatabaseError';
  constructor(message: string, cause?: unknown) {
    super(500, message, { stackless: true, cause });
  }
}

/** Kysely's default: where it records the steps it ran. */
const MIGRATION_TABLE = 'kysely_migration';

/** The first line of what a failed step threw: the boot's message stays one line. */
function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

/** A rollback onto a database a newer release migrated: this code may not read its schema. */
const newerRelease = (where: string, what: string) =>
  new DatabaseError(`${where} ${what}: deploy that release again, or restore a backup from before it`);

/** The steps this database has run, in order; none when it never ran one. */
export async function executedSteps(db: Kysely<unknown>): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM ${sql.table(MIGRATION_TABLE)} ORDER BY timestamp, name`.execute(db);
    return rows.map((row) => row.name);
  } catch (error) {
    if (unavailability(error) !== undefined) throw error;
    return []; // no table yet
  }
}

/**
 * A SQLite file from the releases before Kysely kept its steps' count in its header
 * (PRAGMA user_version): those steps are recorded under their names, so none runs twice.
 */
async function carryOverUserVersion(db: Database, file: DatabaseSync, migrations: readonly Migration[], where: string): Promise<void> {
  const ran = Number(file.prepare('PRAGMA user_version').get()?.user_version ?? 0);
  if (ran === 0) return;
  if (ran > migrations.length)
    throw newerRelease(where, `is at schema version ${ran}, newer than this release's ${migrations.length} migrations`);
  await db.schema
    .createTable(MIGRATION_TABLE)
    .ifNotExists()
    .addColumn('name', 'varchar(255)', (col) => col.notNull().primaryKey())
    .addColumn('timestamp', 'varchar(255)', (col) => col.notNull())
    .execute();
  const at = new Date().toISOString();
  await db
    .insertInto(MIGRATION_TABLE)
    .values(migrations.slice(0, ran).map(({ name }) => ({ name, timestamp: at })))
    .execute();
  file.exec('PRAGMA user_version = 0');
}

/**
 * Runs the steps the database has not run; returns how many it had run. `where` names the
 * database in messages; `file` is SQLite's (its engine), for the carry-over above.
 */
export async function migrate(db: Database, migrations: readonly Migration[], where: string, file?: DatabaseSync): Promise<number> {
  const engine: DatabaseEngine = file === undefined ? 'postgres' : 'sqlite';
  const order = new Map(migrations.map(({ name }, at) => [name, at]));
  if (order.size !== migrations.length) throw new DatabaseError(`${where}: two migrations share a name; each step's name is its identity`);
  let executed = await executedSteps(db);
  if (executed.length === 0 && file !== undefined) {
    await carryOverUserVersion(db, file, migrations, where);
    executed = await executedSteps(db);
  }
  const unknown = executed.filter((name) => !order.has(name));
  if (unknown.length > 0 || executed.length > migrations.length) {
    throw newerRelease(where, `has run a migration this release does not have ("${unknown[0] ?? executed.at(-1)}")`);
  }
  const provider: MigrationProvider = {
    getMigrations: () =>
      Promise.resolve(Object.fromEntries(migrations.map((step) => [step.name, { up: (trx: Database) => step.up(trx, engine) }]))),
  };
  // The list's order, not the names' alphabetical one (Kysely's default).
  const migrator = new Migrator({ db, provider, nameComparator: (a, b) => order.get(a)! - order.get(b)! });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error');
    if (failed === undefined) throw new DatabaseError(`${where}: cannot run migrations: ${firstLine(error)}`, error);
    const at = order.get(failed.migrationName)! + 1;
    throw new DatabaseError(
      `${where}: migration ${at} of ${migrations.length} ("${failed.migrationName}") failed: ${firstLine(error)}`,
      error,
    );
  }
  return executed.length;
}
