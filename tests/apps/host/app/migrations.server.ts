import type { Migration } from '../../../../shared/host.ts';

// The fixture app's schema (docs/data.md, "Migrations"): the board's posts (./routes/board.tsx).
export const migrations: readonly Migration[] = [
  {
    name: 'board posts',
    up: 'CREATE TABLE board_posts (id INTEGER PRIMARY KEY, name TEXT NOT NULL, message TEXT NOT NULL, created_at INTEGER NOT NULL) STRICT;',
  },
  // A second release's: a file of the first is migrated at start-up (tests/writes/database-boot.test.ts).
  { name: 'board posts by name', up: 'CREATE INDEX board_posts_by_name ON board_posts (name);' },
];
