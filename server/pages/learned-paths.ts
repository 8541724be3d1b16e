import type { RevalidateTarget } from '../../shared/host-context.ts';
import { setNewest } from '../../shared/bounded-map.ts';
import { newVariantCount, type VariantCount } from './variant-cap.ts';

// What a replica learned of each path's stored pages while it served them (docs/caching.md): the
// header names its entries vary by, the back-off of a regeneration that failed, how many variants
// it stored this window, and the route's tags. An invalidation forgets what it names (a path, or
// every path of a tag) and nothing else: one write never resets what the replica knows of the
// rest of the site.

/** Paths remembered (the newest kept): a crawl of a million paths must not grow a replica. */
const MAX_PATHS = 10_000;
/** Per path, targets (its query strings and kinds) and keys remembered, the newest kept. */
const MAX_PER_PATH = 64;
/** A longer path is not learned as never stored: a target may be 16 KB, and 10,000 such would hold 160 MB. */
const MAX_UNSTORED_PATH = 1_024;

export interface Learned {
  tags: readonly string[];
  /** The header names each target's entries vary by (by base key, cache-key.ts), as this replica last learned them. */
  varyNames: Map<string, readonly string[]>;
  /** After a failed regeneration of an entry (by key): when the next may start, and the delay that led there. */
  backOff: Map<string, { until: number; delayMs: number }>;
  variants: VariantCount;
}

export function createLearnedPaths(now: () => number) {
  const paths = new Map<string, Learned>();
  /**
   * Paths whose route, in the public route table, is a resource route or a page's without a valid
   * `cache` policy. A path matches the same route on every replica of a build, and stores are a
   * build's own (page-template.ts's namespace): none holds a page of these, so none is asked (with
   * CACHE_REDIS_URL, a round trip per request saved). The first learned goes first, however often
   * it is read.
   */
  const unstored = new Map<string, true>();
  return {
    /** What is known of `path`, if anything. */
    get: (path: string): Learned | undefined => paths.get(path),

    /** Whether `path` was learned as never stored. */
    isUnstored: (path: string): boolean => unstored.has(path),

    /** Learns that `path` is never stored (not one past MAX_UNSTORED_PATH). */
    unstored(path: string): void {
      if (path.length <= MAX_UNSTORED_PATH) setNewest(unstored, path, true, MAX_PATHS);
    },

    /** What is known of `path`, made when nothing is; its tags as the route says now. */
    of(path: string, tags: readonly string[]): Learned {
      let learned = paths.get(path);
      if (learned === undefined) {
        learned = { tags, varyNames: new Map(), backOff: new Map(), variants: newVariantCount(now()) };
        setNewest(paths, path, learned, MAX_PATHS);
      }
      learned.tags = tags;
      return learned;
    },

    /** Forgets the paths an invalidation names: the path, or every path whose route has the tag. */
    forget(target: RevalidateTarget): void {
      if ('path' in target) return void paths.delete(target.path);
      for (const [path, learned] of paths) if (learned.tags.includes(target.tag)) paths.delete(path);
    },
  };
}

/** Sets `key` in one of a path's maps, bounded. */
export function remember<V>(map: Map<string, V>, key: string, value: V): void {
  setNewest(map, key, value, MAX_PER_PATH);
}
