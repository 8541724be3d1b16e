// Each query string, each value of a header a page read, and each kind (document, data, bot) of
// one path is an entry of its own. A client that invents query strings would otherwise fill the
// store with copies of one page: in memory it pushes real pages out, and in the fleet's Redis
// it grows the store a day at a time (docs/caching.md, "Bounds"). So a replica stores at most
// this many variants of one path per window; past it, a variant is rendered and not stored.
// Two things always have a place: the page's own spelling (no query: its kinds and the header
// values it read are counted apart, so invented query strings cannot crowd it out), and the
// refresh of an entry that is stored (a stale page is replaced, never left to age past its time).

/** Variants of one path a replica stores per window, with and without a query apiece: a page's real variants are a handful. */
export const MAX_VARIANTS_PER_PATH = 32;
/** A path's count starts again after this: variants that were real keep being stored as their entries expire and return. */
export const VARIANT_WINDOW_MS = 60 * 60 * 1000;

/** One path's count in the current window: the entry keys stored with a query, and without. */
export interface VariantCount {
  since: number;
  queried: Set<string>;
  own: Set<string>;
}

export const newVariantCount = (now: number): VariantCount => ({ since: now, queried: new Set(), own: new Set() });

export interface VariantAsk {
  key: string;
  /** The target has a query string. */
  queried: boolean;
  /** It replaces an entry that is stored (a regeneration). */
  refresh: boolean;
}

/** Whether this entry may be stored; counts it when it may. */
export function admitVariant(count: VariantCount, { key, queried, refresh }: VariantAsk, now: number): boolean {
  if (now - count.since >= VARIANT_WINDOW_MS) Object.assign(count, newVariantCount(now));
  const keys = queried ? count.queried : count.own;
  if (keys.has(key)) return true;
  // A refresh takes a place past the cap: it is at most one per stored entry, which the cap bounded when it was stored.
  if (keys.size >= MAX_VARIANTS_PER_PATH && !refresh) return false;
  keys.add(key);
  return true;
}
