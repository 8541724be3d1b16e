import type { Migration } from '../../../../shared/host.ts';

// What an app adds to the host (docs/data.md, "Migrations"): a table of its own.
export const migrations: readonly Migration[] = [
  {
    name: 'notes',
    up: (db, engine) =>
      db.schema
        .createTable('notes')
        .addColumn('id', 'integer', (col) => (engine === 'postgres' ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey()))
        .addColumn('text', 'text', (col) => col.notNull())
        .execute(),
  },
];
