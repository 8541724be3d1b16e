// A database of each engine for a test: a SQLite file in a temporary folder, or a database of
// its own in the run's PostgreSQL (started by global-setup.ts), so data tests run on both
// engines (docs/data.md) and never see each other's rows.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { postgresConfig } from '../../server/config/postgres-config.ts';
import type { DatabaseSettings } from '../../server/data/database.ts';

/** Where global-setup.ts tells the workers the run's PostgreSQL is. */
export const TEST_POSTGRES_ENV = 'REACT_SSR_HOST_TEST_POSTGRES';
export const ENGINES = ['sqlite', 'postgres'] as const;
export type Engine = (typeof ENGINES)[number];

/** Databases this worker made: each gets a name of its own. */
let made = 0;
/** The worker's SQLite files' folder, made on first use. */
let sqliteFolder: string | undefined;
const folder = () => (sqliteFolder ??= mkdtempSync(join(tmpdir(), 'react-ssr-host-db-')));

/** A new, empty PostgreSQL database; its URL. */
export async function createPostgresDatabase(): Promise<string> {
  const server = process.env[TEST_POSTGRES_ENV];
  if (server === undefined) throw new Error(`${TEST_POSTGRES_ENV} is not set: tests/support/global-setup.ts starts PostgreSQL`);
  const name = `test_${process.pid}_${(made += 1)}`;
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.href;
}

/** What openDatabase takes for a new, empty database of `engine` (`env`: more of its variables). */
export async function freshDatabase(engine: Engine, env: Record<string, string> = {}): Promise<DatabaseSettings> {
  if (engine === 'sqlite') return { databasePath: join(folder(), `test-${(made += 1)}.sqlite`), postgres: undefined };
  return { databasePath: ':memory:', postgres: postgresConfig({ ...env, DATABASE_URL: await createPostgresDatabase() }) };
}
