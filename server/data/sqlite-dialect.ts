// Kysely on Node's own SQLite (node:sqlite), no native package to build: Kysely's SqliteDialect
// speaks to a better-sqlite3-shaped database (its SqliteDatabase interface,
// node_modules/kysely/dist/dialect/sqlite/sqlite-dialect-config.d.ts), and this is that shape
// over DatabaseSync. The one difference is how parameters are passed (an array there, spread
// here) and whether a statement returns rows (`reader` there, `columns()` here). Kysely gives
// SQLite one connection and runs one query on it at a time, so a statement in the cache is never
// iterated by two queries at once.
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { SqliteAdapter, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';

/**
 * Statements kept compiled, by their SQL: a loader's queries are the same few on every request,
 * and Kysely prepares each query it runs. The oldest goes first past the cap, so an app that
 * builds SQL on the fly cannot grow it without bound.
 */
const PREPARED_CAP = 256;
/** Of refused SQL, quoted in the error. */
const MAX_QUOTED_SQL = 200;

function statementOf(statement: StatementSync): SqliteStatement {
  // Kysely passes what the app gave its query; node:sqlite refuses a value it cannot bind, with its own error.
  const args = (parameters: ReadonlyArray<unknown>) => parameters as SQLInputValue[];
  return {
    reader: statement.columns().length > 0,
    all: (parameters) => statement.all(...args(parameters)),
    run: (parameters) => statement.run(...args(parameters)),
    iterate: (parameters) => statement.iterate(...args(parameters)),
  };
}

/** DatabaseSync in the shape Kysely's SqliteDialect takes. */
function nodeSqliteDatabase(database: DatabaseSync): SqliteDatabase {
  const prepared = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(sql) {
      let statement = prepared.get(sql);
      if (statement === undefined) {
        const compiled = database.prepare(sql);
        // node:sqlite compiles the first statement of several and drops the rest without a word;
        // PostgreSQL would run them all: refused, so a step or query means the same on both.
        if (sql.slice(compiled.sourceSQL.length).trim().replace(/^;/, '') !== '') {
          throw new Error(`one SQL statement at a time on SQLite (node:sqlite runs only the first): ${sql.slice(0, MAX_QUOTED_SQL)}`);
        }
        statement = statementOf(compiled);
        if (prepared.size >= PREPARED_CAP) prepared.delete(prepared.keys().next().value!);
        prepared.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * SQLite rolls schema changes back with the rest of a transaction (its DDL is transactional:
 * https://sqlite.org/lang_transaction.html), which Kysely's adapter does not claim; claimed, the
 * Migrator runs each step in a transaction here as it does on PostgreSQL, so a failed step is undone whole.
 */
class TransactionalSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl() {
    return true;
  }
}

class NodeSqliteDialect extends SqliteDialect {
  override createAdapter() {
    return new TransactionalSqliteAdapter();
  }
}

/** `database` may be a function: Kysely calls it once, at the first query. */
export const nodeSqliteDialect = (database: DatabaseSync | (() => Promise<DatabaseSync>)) =>
  new NodeSqliteDialect({
    database: typeof database === 'function' ? async () => nodeSqliteDatabase(await database()) : nodeSqliteDatabase(database),
  });
