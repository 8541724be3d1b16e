import type { Migration } from '../../../../shared/host.ts';

// The fixture app's schema (docs/data.md, "Migrations"): the board's posts (./routes/board.tsx).
export const migrations: readonly Migration[] = [
  {
    name: 'board posts',
    up: (db, engine) =>
      db.schema
        .createTable('board_posts')
        // An id the database assigns: SQLite's INTEGER PRIMARY KEY is its rowid; PostgreSQL's is an identity.
        .addColumn('id', 'integer', (col) => (engine === 'postgres' ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey()))
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('message', 'text', (col) => col.notNull())
        .addColumn('created_at', 'bigint', (col) => col.notNull())
        .execute(),
  },
  // A second release's: a database of the first is migrated at start-up (tests/data/database-boot.test.ts).
  { name: 'board posts by name', up: (db) => db.schema.createIndex('board_posts_by_name').on('board_posts').column('name').execute() },
];
