import type { Migration } from '../../../../shared/host.ts';

// The fixture app's schema (docs/data.md, "Migrations"): the board's posts (./routes/board.tsx).
export const migrations: readonly Migration[] = [
  {
    name: 'board posts',
    up: 'CREATE TABLE board_posts (id INTEGER PRIMARY KEY, name TEXT NOT NULL, message TEXT NOT NULL, created_at INTEGER NOT NULL) STRICT;',
  },
];
