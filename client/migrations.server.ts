// The app's schema, as an ordered list of steps the host runs at start-up
// (server/writes/migrations.ts): a database file remembers how many it has run, so a newer
// release runs only the new ones. Append a step; never edit or reorder one that has shipped.
// docs/data.md, "Migrations".
import type { Migration } from '../shared/host.ts';

export const migrations: readonly Migration[] = [
  {
    name: 'guestbook entries',
    // STRICT: a value of the wrong type is refused rather than stored (https://sqlite.org/stricttables.html).
    // created_at is milliseconds since the epoch, as Date.now() gives it. The indexes ascend: read
    // backwards they give the store's order (newest first, rowid breaking ties) with no sort step
    // (EXPLAIN QUERY PLAN shows no temporary B-tree).
    up: `
      CREATE TABLE guestbook_entries (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        message TEXT NOT NULL,
        owner TEXT NOT NULL,
        created_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX guestbook_entries_newest ON guestbook_entries (created_at);
    `,
  },
  {
    // The second release's: "my entries" (/guestbook/mine) reads one writer's, newest first.
    name: 'guestbook entries by owner',
    up: 'CREATE INDEX guestbook_entries_by_owner ON guestbook_entries (owner, created_at);',
  },
];
