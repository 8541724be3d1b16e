// Where the guestbook keeps its entries. The demo keeps them in this process's memory: they are
// gone at a restart and differ between replicas. To keep them, implement GuestbookStore over a
// database and export it as `guestbook` here (docs/pages.md, "Actions and forms").
import { randomUUID } from 'node:crypto';

export interface GuestbookEntry {
  id: string;
  name: string;
  message: string;
  createdAt: Date;
  /** The writer's random id, kept in their session (guestbook.server.ts): never shown. */
  owner: string;
}

/** What deleting an entry came to: only its owner may. */
export type Removal = 'removed' | 'missing' | 'not-yours';

export interface GuestbookStore {
  /** Newest first. */
  list(): Promise<GuestbookEntry[]>;
  add(entry: Pick<GuestbookEntry, 'name' | 'message' | 'owner'>): Promise<GuestbookEntry>;
  remove(id: string, owner: string | undefined): Promise<Removal>;
}

/** Entries kept at once: the oldest goes first, so a flood of posts cannot grow the process. */
export const MAX_ENTRIES = 100;

export function createMemoryStore(): GuestbookStore {
  const entries: GuestbookEntry[] = [];
  return {
    list: () => Promise.resolve([...entries]),
    add({ name, message, owner }) {
      const entry = { id: randomUUID(), name, message, owner, createdAt: new Date() };
      entries.unshift(entry);
      entries.length = Math.min(entries.length, MAX_ENTRIES);
      return Promise.resolve(entry);
    },
    remove(id, owner) {
      const at = entries.findIndex((entry) => entry.id === id);
      if (at === -1) return Promise.resolve('missing');
      if (entries[at]!.owner !== owner) return Promise.resolve('not-yours');
      entries.splice(at, 1);
      return Promise.resolve('removed');
    },
  };
}

/** The one store of this process, shared by the page and /api/guestbook. */
export const guestbook: GuestbookStore = createMemoryStore();

/** An entry as anyone may see it: without its owner's id. */
export function publicEntry({ owner: _owner, ...entry }: GuestbookEntry): Omit<GuestbookEntry, 'owner'> {
  return entry;
}
