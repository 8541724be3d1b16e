// The process's one database: Node's own SQLite (node:sqlite's DatabaseSync), opened once at
// start-up by server/index.ts, migrated with the app's steps (client/migrations.server.ts),
// handed to createApp and so to every loader and action as `context.db`, and closed after the
// last in-flight request at shutdown. Where it lives and why: docs/data.md.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Database, Migration } from '../../shared/database.ts';
import type { Logger } from 'pino';
import { flushLogs } from '../observe/logger.ts';
import { LINE_LEVEL } from '../observe/log-levels.ts';
import { DatabaseError, migrate } from './migrations.ts';

/** The path that opens a private database in memory, gone when it closes (https://sqlite.org/inmemorydb.html). */
export const IN_MEMORY = ':memory:';

export interface OpenedDatabase {
  db: Database;
  /** The schema version the file had, and the one it has now: they differ when this boot migrated it. */
  from: number;
  version: number;
}

/**
 * Opens (creating it and its folder if missing) and migrates the database at `path`, or throws
 * a DatabaseError whose message is the one line the boot stops with.
 */
export function openDatabase(path: string, migrations: readonly Migration[]): OpenedDatabase {
  const where = `DATABASE_PATH=${path}`;
  let db: DatabaseSync;
  try {
    if (path !== IN_MEMORY) mkdirSync(dirname(path), { recursive: true });
    db = new DatabaseSync(path);
    // A write-ahead log: a commit appends instead of rewriting pages, and a backup may read
    // while the server writes. With it, synchronous=NORMAL syncs at checkpoints, not at every
    // commit, and stays consistent after a crash (https://sqlite.org/wal.html, https://sqlite.org/pragma.html#pragma_synchronous).
    if (path !== IN_MEMORY) db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL');
  } catch (error) {
    throw new DatabaseError(`cannot open ${where}: ${(error as Error).message}`, error);
  }
  try {
    const from = migrate(db, migrations, where);
    return { db, from, version: migrations.length };
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The app's database, opened and migrated before anything listens; a failure stops the boot with one line. */
export async function openAppDatabase(databasePath: string, migrations: readonly Migration[], logger: Logger): Promise<Database> {
  try {
    const { db, from, version } = openDatabase(databasePath, migrations);
    if (from !== version)
      logger[LINE_LEVEL.lifecycle]({ databasePath, from, version }, `database migrated from version ${from} to ${version}`);
    return db;
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    logger[LINE_LEVEL.bootFailure]({ databasePath }, error.message);
    await flushLogs(logger);
    process.exit(1);
  }
}
