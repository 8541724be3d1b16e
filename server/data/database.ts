// The process's one database, opened at start-up by server/index.ts, migrated with the app's
// steps (client/migrations.server.ts), handed to createApp and so to every loader and action as
// `context.db`, and closed after the last in-flight request at shutdown. The replica's own
// SQLite file (node:sqlite) unless DATABASE_URL names a PostgreSQL server that every replica
// shares. Why each, and what a replica may keep locally: docs/data.md.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, type Dialect } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import type { PostgresConfig } from '../config/postgres-config.ts';
import { flushLogs } from '../observe/logger.ts';
import { LINE_LEVEL } from '../observe/log-levels.ts';
import type { Database, Migration } from '../../shared/database.ts';
import { availability, unavailability } from './availability.ts';
import { watchedDriver } from './watched-driver.ts';
import { HOST_MIGRATIONS, HOST_MIGRATIONS_TABLE } from './database-sessions.ts';
import { DatabaseError, firstLine, migrate } from './migrations.ts';
import { nodeSqliteDialect } from './sqlite-dialect.ts';

type PostgresModule = typeof import('./postgres-dialect.ts');

/** The path that opens a private database in memory, gone when it closes (https://sqlite.org/inmemorydb.html). */
export const IN_MEMORY = ':memory:';

/**
 * A migration may rewrite a large table: its statements get this long, not the requests'
 * DATABASE_STATEMENT_TIMEOUT_MS. A replica waiting on another's advisory lock waits as long.
 */
const MIGRATION_STATEMENT_TIMEOUT_MS = 10 * 60_000;
/**
 * A PostgreSQL starting beside the replica (compose starts both at once; a pod may start before
 * its database is ready) gets this long before the boot gives up with its one line, tried again
 * every BOOT_RETRY_MS; an orchestrator then starts the replica again.
 */
const BOOT_WAIT_MS = 30_000;
const BOOT_RETRY_MS = 1_000;

export type DatabaseSettings = Pick<Config, 'databasePath' | 'postgres'>;

export interface OpenedDatabase {
  db: Database;
  /** How many of the app's steps the database had run, and how many it has now: they differ when this boot migrated it. */
  from: number;
  version: number;
}

/** With every query watched (./availability.ts): a database down or slow is a 503 and one outage line. */
function watched(dialect: Dialect, logger: Logger | undefined, where: string): Kysely<never> {
  const watch = logger === undefined ? undefined : availability(logger, where);
  if (watch === undefined) return new Kysely({ dialect });
  return new Kysely({
    dialect: {
      createAdapter: () => dialect.createAdapter(),
      createIntrospector: (db) => dialect.createIntrospector(db),
      createQueryCompiler: () => dialect.createQueryCompiler(),
      createDriver: () => watchedDriver(dialect.createDriver(), watch),
    },
  });
}

function openSqlite(path: string, where: string): DatabaseSync {
  try {
    if (path !== IN_MEMORY) mkdirSync(dirname(path), { recursive: true });
    const file = new DatabaseSync(path);
    // A write-ahead log: a commit appends instead of rewriting pages, and a backup may read
    // while the server writes. With it, synchronous=NORMAL syncs at checkpoints, not at every
    // commit, and stays consistent after a crash (https://sqlite.org/wal.html, https://sqlite.org/pragma.html#pragma_synchronous).
    if (path !== IN_MEMORY) file.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL');
    return file;
  } catch (error) {
    throw new DatabaseError(`cannot open ${where}: ${(error as Error).message}`, error);
  }
}

/** The steps run on a pool of one connection whose statements may take their time; then it is closed. */
async function migratePostgres(
  pg: PostgresModule,
  config: PostgresConfig,
  migrations: readonly Migration[],
  where: string,
): Promise<number> {
  const { createPool, postgresDialect } = pg;
  const pool = createPool({ ...config, poolMax: 1, statementTimeoutMs: MIGRATION_STATEMENT_TIMEOUT_MS }, () => {});
  const db = new Kysely<never>({ dialect: postgresDialect(pool) });
  try {
    const from = await migrate(db, migrations, where, { engine: 'postgres' });
    await migrate(db, HOST_MIGRATIONS, where, { engine: 'postgres', table: HOST_MIGRATIONS_TABLE });
    return from;
  } catch (error) {
    if (error instanceof DatabaseError) throw error;
    throw new DatabaseError(`cannot reach ${where}: ${firstLine(error)}`, error);
  } finally {
    await db.destroy();
  }
}

/** Runs `boot` again while the database cannot be reached, for at most BOOT_WAIT_MS; says so once. */
async function untilReachable<T>(boot: () => Promise<T>, where: string, logger: Logger | undefined): Promise<T> {
  const started = Date.now();
  for (let told = false; ; told = true) {
    try {
      return await boot();
    } catch (error) {
      if (!(error instanceof DatabaseError) || unavailability(error.cause) === undefined || Date.now() - started >= BOOT_WAIT_MS)
        throw error;
      if (!told)
        logger?.warn(
          { database: where, error: { message: error.message } },
          `database not reachable yet: waiting up to ${BOOT_WAIT_MS / 1000} s`,
        );
      await new Promise((resolve) => setTimeout(resolve, BOOT_RETRY_MS));
    }
  }
}

/**
 * Opens (for SQLite, creating the file and its folder if missing) and migrates the app's
 * database, or throws a DatabaseError whose message is the one line the boot stops with.
 * With a logger, its queries are watched for outages (./availability.ts).
 */
export async function openDatabase(settings: DatabaseSettings, migrations: readonly Migration[], logger?: Logger): Promise<OpenedDatabase> {
  const { postgres } = settings;
  if (postgres !== undefined) {
    // Loaded only for PostgreSQL: a replica's own SQLite needs none of pg.
    const pg = await import('./postgres-dialect.ts');
    const where = `DATABASE_URL=postgres://${postgres.where}`;
    const from = await untilReachable(() => migratePostgres(pg, postgres, migrations, where), postgres.where, logger);
    const { createPool, postgresDialect } = pg;
    // Told at debug only: if the database is gone, the next query tells the outage (./availability.ts).
    const pool = createPool(postgres, (error) =>
      logger?.debug({ database: postgres.where, error: { message: error.message } }, 'database connection dropped while idle'),
    );
    return { db: watched(postgresDialect(pool), logger, postgres.where), from, version: migrations.length };
  }
  const where = `DATABASE_PATH=${settings.databasePath}`;
  const file = openSqlite(settings.databasePath, where);
  const db = watched(nodeSqliteDialect(file), logger, settings.databasePath);
  try {
    const from = await migrate(db, migrations, where, { engine: 'sqlite', file });
    await migrate(db, HOST_MIGRATIONS, where, { engine: 'sqlite', table: HOST_MIGRATIONS_TABLE });
    return { db, from, version: migrations.length };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

/** The app's database, opened and migrated before anything listens; a failure stops the boot with one line. */
export async function openAppDatabase(settings: DatabaseSettings, migrations: readonly Migration[], logger: Logger): Promise<Database> {
  const engine = settings.postgres === undefined ? { databasePath: settings.databasePath } : { database: settings.postgres.where };
  try {
    const { db, from, version } = await openDatabase(settings, migrations, logger);
    if (from !== version)
      logger[LINE_LEVEL.lifecycle]({ ...engine, from, version }, `database migrated from version ${from} to ${version}`);
    return db;
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    logger[LINE_LEVEL.bootFailure](engine, error.message);
    await flushLogs(logger);
    process.exit(1);
  }
}

/** A database that has not closed in this long is left to the process's exit: the stop goes on to its last line. */
const CLOSE_TIMEOUT_MS = 2_000;

/**
 * Closes the database at shutdown: SQLite checkpoints its write-ahead log into the file;
 * PostgreSQL's pool ends its connections, waiting for any still checked out (a request past the
 * grace period). Within CLOSE_TIMEOUT_MS, and what goes wrong is one warn line, never the stop's end.
 */
export async function closeDatabase(db: Database, logger: Logger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), CLOSE_TIMEOUT_MS)));
  try {
    if ((await Promise.race([db.destroy(), timedOut])) === 'timeout') logger.warn(`database not closed within ${CLOSE_TIMEOUT_MS} ms`);
  } catch (error) {
    logger.warn({ error: { message: firstLine(error) } }, 'database not closed cleanly');
  } finally {
    clearTimeout(timer);
  }
}
