// Where the guestbook keeps its entries. The demo keeps them in this process's memory: they are
// gone at a restart and differ between replicas. To keep them, implement GuestbookStore over a
// database and export it as `guestbook` here (docs/pages.md, "Actions and forms").
import { randomUUID } from 'node:crypto';

export interface GuestbookEntry {
  id: string;
  name: string;
  message: string;
  createdAt: Date;
}

export interface GuestbookStore {
  /** Newest first. */
  list(): Promise<GuestbookEntry[]>;
  add(entry: Pick<GuestbookEntry, 'name' | 'message'>): Promise<GuestbookEntry>;
  /** False when there was no such entry. */
  remove(id: string): Promise<boolean>;
}

/** Entries kept at once: the oldest goes first, so a flood of posts cannot grow the process. */
export const MAX_ENTRIES = 100;

export function createMemoryStore(): GuestbookStore {
  const entries: GuestbookEntry[] = [];
  return {
    list: () => Promise.resolve([...entries]),
    add({ name, message }) {
      const entry = { id: randomUUID(), name, message, createdAt: new Date() };
      entries.unshift(entry);
      entries.length = Math.min(entries.length, MAX_ENTRIES);
      return Promise.resolve(entry);
    },
    remove(id) {
      const at = entries.findIndex((entry) => entry.id === id);
      if (at !== -1) entries.splice(at, 1);
      return Promise.resolve(at !== -1);
    },
  };
}

/** The one store of this process, shared by the page and /api/guestbook. */
export const guestbook: GuestbookStore = createMemoryStore();
