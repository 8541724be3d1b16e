import { setNewest } from '../../shared/bounded-map.ts';

// Each query string, each value of a header a page read, and each kind (document, data, bot) of
// one path is an entry of its own. A client that invents query strings would otherwise fill the
// store with copies of one page: in memory it pushes real pages out, and in the fleet's Redis,
// whose least-recently-used eviction spans every key, it would evict the rate limits' windows
// and the spent report proofs too (docs/caching.md, "Bounds"). So a replica stores at most this
// many variants of one path per window; past it, a variant is rendered and not stored.

/** Variants of one path a replica stores per window: a page's real variants are a handful (document and data, a language or two). */
export const MAX_VARIANTS_PER_PATH = 32;
/** A path's count starts again after this: variants that were real keep being stored as their entries expire and return. */
export const VARIANT_WINDOW_MS = 60 * 60 * 1000;
/** Paths counted at once (the newest kept), as the page cache bounds what it remembers per target. */
const MAX_PATHS = 10_000;

export interface VariantCap {
  /** Whether this entry key of this path may be stored: true for a key already counted. */
  admits(path: string, key: string): boolean;
  /** Forgets every count (an invalidation dropped the entries they counted). */
  clear(): void;
}

export function createVariantCap(now: () => number): VariantCap {
  const paths = new Map<string, { since: number; keys: Set<string> }>();
  return {
    admits(path, key) {
      let counted = paths.get(path);
      if (counted === undefined || now() - counted.since >= VARIANT_WINDOW_MS) {
        counted = { since: now(), keys: new Set() };
        setNewest(paths, path, counted, MAX_PATHS);
      }
      if (counted.keys.has(key)) return true;
      if (counted.keys.size >= MAX_VARIANTS_PER_PATH) return false;
      counted.keys.add(key);
      return true;
    },
    clear: () => paths.clear(),
  };
}
