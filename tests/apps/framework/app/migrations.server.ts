import type { Migration } from '../../../../shared/host.ts';

// What an app adds to the host (docs/data.md, "Migrations"): a table of its own.
export const migrations: readonly Migration[] = [
  { name: 'notes', up: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL) STRICT;' },
];
