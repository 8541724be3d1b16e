// The app's schema, brought up to date at start-up: each step the database ran is recorded by
// name (the kysely_migration table, as Kysely's Migrator names it), so a newer release runs only
// the steps after them, in the list's order. Each step runs in a transaction of its own with its
// record, on SQLite and PostgreSQL alike (both roll DDL back), so a failed step leaves the
// database as the step before left it. On PostgreSQL each step's transaction takes an advisory
// lock and reads the record again: replicas starting together run each step once. Kysely's own
// Migrator is not used: it sorts steps by name and runs a whole release's in one transaction.
import { sql, type Kysely } from 'kysely';
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

/** Where the app's steps are recorded (the name Kysely's Migrator gives it). */
const MIGRATION_TABLE = 'kysely_migration';
/**
 * PostgreSQL's advisory lock the steps are run under (pg_advisory_xact_lock: held until the
 * step's transaction ends, https://www.postgresql.org/docs/15/functions-admin.html#FUNCTIONS-ADVISORY-LOCKS).
 * Any constant the app itself does not use; this one spells "rsh-migr" in ASCII.
 */
const MIGRATION_LOCK_KEY = 0x7273_682d_6d69_6772n;
/**
 * What a file migrated from PRAGMA user_version is left at: a release from before that
 * bookkeeping reads it as "newer than this release" and refuses the file, rather than run its
 * first step again on a full database.
 */
const CARRIED_OVER_USER_VERSION = 2_147_483_647;

/** Whose steps: the app's, or the host's own tables' (./database-sessions.ts), recorded apart so neither list sees the other's. */
export interface MigrationSet {
  engine: DatabaseEngine;
  /** SQLite's connection, for the app's carry-over from PRAGMA user_version. */
  file?: DatabaseSync;
  /** Where the steps are recorded: the app's in MIGRATION_TABLE. */
  table?: string;
}

/** The first line of what a failed step threw: the boot's message stays one line. */
export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

/** A rollback onto a database a newer release migrated: this code may not read its schema. */
const newerRelease = (where: string, what: string) =>
  new DatabaseError(`${where} ${what}: deploy that release again, or restore a backup from before it`);

/** The steps this database has run (by when, then by name: steps of one millisecond by name); none when it never ran one. */
export async function executedSteps(db: Kysely<unknown>, table = MIGRATION_TABLE): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM ${sql.table(table)} ORDER BY timestamp, name`.execute(db);
    return rows.map((row) => row.name);
  } catch (error) {
    if (unavailability(error) !== undefined) throw error;
    return []; // no table yet
  }
}

const recordTable = (db: Database, table: string) =>
  db.schema
    .createTable(table)
    .ifNotExists()
    .addColumn('name', 'varchar(255)', (col) => col.notNull().primaryKey())
    .addColumn('timestamp', 'varchar(255)', (col) => col.notNull())
    .execute();

/**
 * A SQLite file from the releases before this bookkeeping kept its steps' count in its header
 * (PRAGMA user_version): those steps are recorded under their names, so none runs twice.
 */
async function carryOverUserVersion(db: Database, file: DatabaseSync, migrations: readonly Migration[], where: string): Promise<void> {
  const ran = Number(file.prepare('PRAGMA user_version').get()?.user_version ?? 0);
  if (ran === 0 || ran === CARRIED_OVER_USER_VERSION) return;
  if (ran > migrations.length)
    throw newerRelease(where, `is at schema version ${ran}, newer than this release's ${migrations.length} migrations`);
  await recordTable(db, MIGRATION_TABLE);
  const at = new Date().toISOString();
  await db
    .insertInto(MIGRATION_TABLE)
    .values(migrations.slice(0, ran).map(({ name }) => ({ name, timestamp: at })))
    .execute();
  file.exec(`PRAGMA user_version = ${CARRIED_OVER_USER_VERSION}`);
}

/**
 * Runs the steps the database has not run, each in its own transaction; returns how many of
 * them it found already run (the list's length minus those this call ran). `where` names the
 * database in messages.
 */
export async function migrate(
  db: Database,
  migrations: readonly Migration[],
  where: string,
  { engine, file, table = MIGRATION_TABLE }: MigrationSet,
): Promise<number> {
  const names = new Set(migrations.map(({ name }) => name));
  if (names.size !== migrations.length) throw new DatabaseError(`${where}: two migrations share a name; each step's name is its identity`);
  if (file !== undefined) await carryOverUserVersion(db, file, migrations, where);
  /** `work` in a transaction that holds the migrations' lock (PostgreSQL; SQLite's file has one writer at a time anyway). */
  const locked = <T>(work: (trx: Database) => Promise<T>) =>
    db.transaction().execute(async (trx) => {
      if (engine === 'postgres') await sql`SELECT pg_advisory_xact_lock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(trx);
      return work(trx);
    });
  let executed: string[];
  try {
    executed = await locked(async (trx) => (await recordTable(trx, table), executedSteps(trx, table)));
  } catch (error) {
    throw new DatabaseError(`${where}: cannot read its migrations: ${firstLine(error)}`, error);
  }
  const unknown = executed.find((name) => !names.has(name));
  if (unknown !== undefined) throw newerRelease(where, `has run a migration this release does not have ("${unknown}")`);
  let ran = 0;
  for (const [at, step] of migrations.entries()) {
    if (executed.includes(step.name)) continue;
    try {
      ran += await locked(async (trx) => {
        // Another replica may have run it while this one waited for the lock.
        if ((await executedSteps(trx, table)).includes(step.name)) return 0;
        await step.up(trx, engine);
        await trx.insertInto(table).values({ name: step.name, timestamp: new Date().toISOString() }).execute();
        return 1;
      });
    } catch (error) {
      throw new DatabaseError(`${where}: migration ${at + 1} of ${migrations.length} ("${step.name}") failed: ${firstLine(error)}`, error);
    }
  }
  return migrations.length - ran;
}
