// Where the guestbook keeps its entries: the host's SQLite database (context.db, a file per
// replica; its table is made by client/migrations.server.ts). Loaders and actions reach it with
// guestbookOf(context). The interface is asynchronous although SQLite here is not, so a store
// over PostgreSQL can take its place when replicas must share entries (docs/data.md).
import { randomUUID } from 'node:crypto';
import type { Database } from '../../../shared/host.ts';

export interface GuestbookEntry {
  id: string;
  name: string;
  message: string;
  createdAt: Date;
  /** The writer's random id, kept in their session (guestbook.tsx): never shown. */
  owner: string;
}

/** What deleting an entry came to: only its owner may. */
export type Removal = 'removed' | 'missing' | 'not-yours';

export interface GuestbookStore {
  /** Newest first. */
  list(): Promise<GuestbookEntry[]>;
  /** One entry, or undefined when there is none with this id. */
  get(id: string): Promise<GuestbookEntry | undefined>;
  /** One writer's entries, newest first. */
  listByOwner(owner: string): Promise<GuestbookEntry[]>;
  add(entry: Pick<GuestbookEntry, 'name' | 'message' | 'owner'>): Promise<GuestbookEntry>;
  remove(id: string, owner: string | undefined): Promise<Removal>;
}

/** Entries kept at once: the oldest goes first, so a flood of posts cannot fill the disk, and the page shows them all. */
export const MAX_ENTRIES = 100;

const COLUMNS = 'id, name, message, owner, created_at';
/** Newest first; rowid breaks ties between entries of the same millisecond. */
const NEWEST = 'ORDER BY created_at DESC, rowid DESC';

function entryOf(row: Record<string, unknown>): GuestbookEntry {
  const { id, name, message, owner, created_at } = row as { id: string; name: string; message: string; owner: string; created_at: number };
  return { id, name, message, owner, createdAt: new Date(created_at) };
}

export function createSqliteStore(db: Database): GuestbookStore {
  // Prepared once per store: each is compiled SQL that every request reuses.
  const all = db.prepare(`SELECT ${COLUMNS} FROM guestbook_entries ${NEWEST} LIMIT ${MAX_ENTRIES}`);
  const one = db.prepare(`SELECT ${COLUMNS} FROM guestbook_entries WHERE id = ?`);
  const byOwner = db.prepare(`SELECT ${COLUMNS} FROM guestbook_entries WHERE owner = ? ${NEWEST}`);
  const insert = db.prepare(`INSERT INTO guestbook_entries (${COLUMNS}) VALUES (?, ?, ?, ?, ?)`);
  const trim = db.prepare(
    `DELETE FROM guestbook_entries WHERE rowid NOT IN (SELECT rowid FROM guestbook_entries ${NEWEST} LIMIT ${MAX_ENTRIES})`,
  );
  const remove = db.prepare('DELETE FROM guestbook_entries WHERE id = ?');
  return {
    list: () => Promise.resolve(all.all().map(entryOf)),
    get(id) {
      const row = one.get(id);
      return Promise.resolve(row === undefined ? undefined : entryOf(row));
    },
    listByOwner: (owner) => Promise.resolve(byOwner.all(owner).map(entryOf)),
    add({ name, message, owner }) {
      const entry = { id: randomUUID(), name, message, owner, createdAt: new Date() };
      insert.run(entry.id, name, message, owner, entry.createdAt.getTime());
      trim.run();
      return Promise.resolve(entry);
    },
    remove(id, owner) {
      const row = one.get(id);
      if (row === undefined) return Promise.resolve('missing');
      if (row.owner !== owner) return Promise.resolve('not-yours');
      remove.run(id);
      return Promise.resolve('removed');
    },
  };
}

/** One store per database: its statements are prepared on the first request, not on every one. */
const stores = new WeakMap<Database, GuestbookStore>();

/** The guestbook of this request's database: what the page, its action and /api/guestbook use. */
export function guestbookOf(context: { db: Database }): GuestbookStore {
  let store = stores.get(context.db);
  if (store === undefined) stores.set(context.db, (store = createSqliteStore(context.db)));
  return store;
}

/** An entry as anyone may see it: without its owner's id. */
export function publicEntry({ owner: _owner, ...entry }: GuestbookEntry): Omit<GuestbookEntry, 'owner'> {
  return entry;
}
