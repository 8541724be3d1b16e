// The test app's database (test-app.ts): SQLite in memory, migrated with the app's steps before
// its first query runs. createTestApp stays synchronous, as the tests that call it are: Kysely's
// SqliteDialect takes a function that gives the database, called once at the first query
// (server/data/sqlite-dialect.ts passes it on;
// node_modules/kysely/dist/dialect/sqlite/sqlite-dialect-config.d.ts).
import { DatabaseSync } from 'node:sqlite';
import { Kysely } from 'kysely';
import { migrate } from '../../server/data/migrations.ts';
import { nodeSqliteDialect } from '../../server/data/sqlite-dialect.ts';
import type { Database, Migration } from '../../shared/database.ts';

export function migratedInMemory(migrations: readonly Migration[]): Database {
  const database = async () => {
    const file = new DatabaseSync(':memory:');
    // The same connection, through a Kysely of its own that is never destroyed (that would close it).
    await migrate(new Kysely({ dialect: nodeSqliteDialect(file) }), migrations, 'DATABASE_PATH=:memory:', { engine: 'sqlite', file });
    return file;
  };
  return new Kysely({ dialect: nodeSqliteDialect(database) });
}
