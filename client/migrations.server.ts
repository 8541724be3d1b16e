// The app's schema, as an ordered list of steps the host runs at start-up
// (server/data/migrations.ts): the database records each step it ran by name, so a newer
// release runs only the new ones. Each is written once with Kysely's schema builder, which
// says it in SQLite's and PostgreSQL's SQL alike. Append a step; never edit, rename or reorder
// one that has shipped. docs/data.md, "Migrations".
import type { Migration } from '../shared/host.ts';

export const migrations: readonly Migration[] = [
  {
    name: 'guestbook entries',
    // created_at is milliseconds since the epoch, as Date.now() gives it: bigint, past int4's range.
    up: async (db) => {
      await db.schema
        .createTable('guestbook_entries')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('message', 'text', (col) => col.notNull())
        .addColumn('owner', 'text', (col) => col.notNull())
        .addColumn('created_at', 'bigint', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('guestbook_entries_newest').on('guestbook_entries').column('created_at').execute();
    },
  },
  {
    // The second release's: "my entries" (/guestbook/mine) reads one writer's, newest first.
    name: 'guestbook entries by owner',
    up: (db) => db.schema.createIndex('guestbook_entries_by_owner').on('guestbook_entries').columns(['owner', 'created_at']).execute(),
  },
  {
    // The third's, for PostgreSQL, which has no rowid: ties within a millisecond are broken by
    // id on both engines, and the index read backwards gives that order with no sort step.
    name: 'guestbook order without rowid',
    up: async (db) => {
      await db.schema.createIndex('guestbook_entries_order').on('guestbook_entries').columns(['created_at', 'id']).execute();
      await db.schema.dropIndex('guestbook_entries_newest').execute();
    },
  },
  {
    // The fourth's: an entry's attachment, its name as sent (the file is in context.files, keyed
    // by the entry's id: client/pages/guestbook/attachments.server.ts); null without one.
    name: 'guestbook attachments',
    up: (db) => db.schema.alterTable('guestbook_entries').addColumn('attachment', 'text').execute(),
  },
];
