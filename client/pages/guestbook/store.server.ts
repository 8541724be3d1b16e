// Where the guestbook keeps its entries: the host's database (context.db: the replica's SQLite
// file, or PostgreSQL shared by every replica when DATABASE_URL is set; its table is made by
// client/migrations.server.ts). Loaders and actions reach it with guestbookOf(context).
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../shared/host.ts';

export interface GuestbookEntry {
  id: string;
  name: string;
  message: string;
  createdAt: Date;
  /** The writer's random id, kept in their session (guestbook.tsx): never shown. */
  owner: string;
  /** The attached file's name as it was sent, or null (the file: ./attachments.server.ts). */
  attachment: string | null;
}

/** An entry added, and the entries that made room for it whose attachments are to be removed. */
export interface Added {
  entry: GuestbookEntry;
  droppedAttachments: string[];
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
  /** A new entry, under `id` when given (its attachment was stored under it first). */
  add(entry: Pick<GuestbookEntry, 'name' | 'message' | 'owner'> & Partial<Pick<GuestbookEntry, 'id' | 'attachment'>>): Promise<Added>;
  remove(id: string, owner: string | undefined): Promise<Removal>;
}

/** Entries kept at once: the oldest goes first, so a flood of posts cannot fill the disk, and the page shows them all. */
export const MAX_ENTRIES = 100;

/** The table as the queries read it (client/migrations.server.ts makes it). */
export interface GuestbookTables {
  guestbook_entries: { id: string; name: string; message: string; owner: string; created_at: number; attachment: string | null };
}

type Row = GuestbookTables['guestbook_entries'];

function entryOf({ id, name, message, owner, created_at, attachment }: Row): GuestbookEntry {
  return { id, name, message, owner, createdAt: new Date(created_at), attachment };
}

export function createStore(context: { db: Database }): GuestbookStore {
  const db: Kysely<GuestbookTables> = context.db;
  // Newest first; id breaks ties two replicas may make (an index gives this order).
  const newest = () => db.selectFrom('guestbook_entries').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc');
  const get = async (id: string) => {
    const row = await db.selectFrom('guestbook_entries').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : entryOf(row);
  };
  return {
    list: async () => (await newest().limit(MAX_ENTRIES).execute()).map(entryOf),
    get,
    listByOwner: async (owner) => (await newest().where('owner', '=', owner).execute()).map(entryOf),
    async add({ id = randomUUID(), name, message, owner, attachment = null }) {
      return db.transaction().execute(async (trx) => {
        const newest = await trx.selectFrom('guestbook_entries').select((eb) => eb.fn.max('created_at').as('at')).executeTakeFirst();
        // After the newest entry, even within its millisecond: newest first is the order they were written in.
        const createdAt = new Date(Math.max(Date.now(), Number(newest?.at ?? 0) + 1));
        const entry = { id, name, message, owner, createdAt, attachment };
        await trx
          .insertInto('guestbook_entries')
          .values({ id, name, message, owner, created_at: createdAt.getTime(), attachment })
          .execute();
        // The oldest beyond MAX_ENTRIES go, in the same transaction as the new one; their files after it.
        const kept = trx.selectFrom('guestbook_entries').select('id').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(MAX_ENTRIES);
        const dropped = await trx.selectFrom('guestbook_entries').select('id').where('attachment', 'is not', null).where('id', 'not in', kept).execute();
        await trx.deleteFrom('guestbook_entries').where('id', 'not in', kept).execute();
        return { entry, droppedAttachments: dropped.map((row) => row.id) };
      });
    },
    async remove(id, owner) {
      if (owner === undefined) return (await get(id)) === undefined ? 'missing' : 'not-yours';
      // One statement decides and deletes, so two replicas deleting at once cannot both say "removed".
      const deleted = await db.deleteFrom('guestbook_entries').where('id', '=', id).where('owner', '=', owner).executeTakeFirst();
      if (deleted.numDeletedRows > 0n) return 'removed';
      return (await get(id)) === undefined ? 'missing' : 'not-yours';
    },
  };
}

/** One store per database, made on its first request. */
const stores = new WeakMap<Database, GuestbookStore>();

/** The guestbook of this request's database: what the page, its action and /api/guestbook use. */
export function guestbookOf(context: { db: Database }): GuestbookStore {
  let store = stores.get(context.db);
  if (store === undefined) stores.set(context.db, (store = createStore(context)));
  return store;
}

/** An entry as anyone may see it: without its owner's id. */
export function publicEntry({ owner: _owner, ...entry }: GuestbookEntry): Omit<GuestbookEntry, 'owner'> {
  return entry;
}
