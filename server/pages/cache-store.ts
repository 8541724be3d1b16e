import type { RevalidateTarget } from '../../shared/host-context.ts';

// Where stored pages live (docs/caching.md): this process's memory by default, bounded in bytes
// and least recently used out; with REDIS_URL, Redis (redis-store.ts), shared by the fleet.

/** A stored page or its navigation data: a template the per-request values are filled into (page-template.ts). */
export interface CacheEntry {
  status: number;
  /** The answer's own headers (the routes' and the type), never a cookie. */
  headers: Record<string, string>;
  body: string;
  /** When it was rendered (ms since the epoch): `Age`, and fresh until storedAt + revalidateMs. */
  storedAt: number;
  revalidateMs: number;
  /** The page's path (`/about`) and its route's tags: what a revalidation names. */
  path: string;
  tags: readonly string[];
  /** The request headers its loaders read, by name, and their values then: a request with others is another variant. */
  vary: Readonly<Record<string, string>>;
  /** Its markers' id (page-template.ts): values are filled where those stand, and nowhere else. */
  marker: string;
  /** The route label of the render it holds (`page:pages/about`, `data:…`): a HIT's access line names it, as the render's did. */
  route: string;
}

/** What an invalidation did: how many entries this store held, and whether the store said so (false: it did not answer in time). */
export interface Invalidated {
  dropped: number;
  confirmed: boolean;
}

export interface CacheStore {
  /** Entries every replica reads (Redis), or this process's alone (memory). */
  readonly shared: boolean;
  /** Undefined when there is none, or the store could not answer in time (counted, logged once). */
  get(key: string): Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry): Promise<void>;
  /** Drops one entry. */
  delete(key: string): Promise<void>;
  /** Drops the entries of a path or tag that this store holds (every replica's, when shared). */
  invalidate(target: RevalidateTarget): Promise<Invalidated>;
  close(): Promise<void>;
}

/**
 * A stale entry is kept this long past its revalidate time, in either store: long enough to
 * answer while a failing regeneration is retried, not for ever.
 */
export const STALE_KEEP_MS = 24 * 60 * 60 * 1000;

/** What an entry costs in memory, about: its body and headers as UTF-16, and a fixed overhead. */
const ENTRY_OVERHEAD_BYTES = 512;
export function entryBytes(key: string, entry: CacheEntry): number {
  return ENTRY_OVERHEAD_BYTES + 2 * (key.length + entry.body.length + JSON.stringify(entry.headers).length);
}

/** The store's key for the entries of a path or tag (shared by both stores). */
export function groupOf(target: RevalidateTarget): string {
  return 'path' in target ? `path:${target.path}` : `tag:${target.tag}`;
}

/** A Map keeps insertion order: deleting and re-setting on every read makes its first key the least recently used. */
/** `now`: the clock the entries' `storedAt` was read from (the page cache's). */
export function createMemoryStore(maxBytes: number, now: () => number = Date.now): CacheStore {
  const entries = new Map<string, { entry: CacheEntry; bytes: number }>();
  let bytes = 0;
  const drop = (key: string) => {
    const held = entries.get(key);
    if (held === undefined) return false;
    entries.delete(key);
    bytes -= held.bytes;
    return true;
  };
  return {
    shared: false,
    get(key) {
      const held = entries.get(key);
      if (held === undefined) return Promise.resolve(undefined);
      if (now() - held.entry.storedAt > held.entry.revalidateMs + STALE_KEEP_MS) {
        drop(key);
        return Promise.resolve(undefined);
      }
      entries.delete(key);
      entries.set(key, held);
      return Promise.resolve(held.entry);
    },
    set(key, entry) {
      drop(key);
      const size = entryBytes(key, entry);
      // An entry larger than the whole cache would only push everything else out.
      if (size > maxBytes) return Promise.resolve();
      entries.set(key, { entry, bytes: size });
      bytes += size;
      for (const oldest of entries.keys()) {
        if (bytes <= maxBytes) break;
        drop(oldest);
      }
      return Promise.resolve();
    },
    delete(key) {
      drop(key);
      return Promise.resolve();
    },
    invalidate(target) {
      let dropped = 0;
      for (const [key, { entry }] of entries) {
        const named = 'path' in target ? entry.path === target.path : entry.tags.includes(target.tag);
        if (named && drop(key)) dropped += 1;
      }
      return Promise.resolve({ dropped, confirmed: true });
    },
    close: () => Promise.resolve(),
  };
}
