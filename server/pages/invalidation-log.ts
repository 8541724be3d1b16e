import type { RevalidateTarget } from '../../shared/host-context.ts';
import { groupOf } from './cache-store.ts';

// Which renders an invalidation overtook (docs/caching.md, "Dropping entries"): a page rendered
// while its path or one of its tags was revalidated may show what was just changed, so it is not
// stored. Only those: a revalidation of one tag leaves every other page's render to be stored.

/** Paths and tags remembered by name; past it, the oldest one's moment stands for every forgotten name (never too few refused, never unbounded). */
const MAX_REMEMBERED_GROUPS = 10_000;

export interface InvalidationLog {
  /** The moment now: a render begun now carries it. */
  now(): number;
  /** An invalidation of `target`, here or on another replica. */
  note(target: RevalidateTarget): void;
  /** Whether this path or one of these tags was invalidated after `moment`. */
  overtook(moment: number, path: string, tags: readonly string[]): boolean;
}

export function createInvalidationLog(): InvalidationLog {
  let moment = 0;
  /** The newest moment no longer remembered by name. */
  let forgotten = 0;
  const last = new Map<string, number>();
  const after = (group: string, since: number) => (last.get(group) ?? 0) > since;
  return {
    now: () => moment,
    note(target) {
      moment += 1;
      const group = groupOf(target);
      last.delete(group);
      last.set(group, moment);
      if (last.size <= MAX_REMEMBERED_GROUPS) return;
      const [oldest, at] = last.entries().next().value as [string, number];
      last.delete(oldest);
      forgotten = Math.max(forgotten, at);
    },
    overtook(since, path, tags) {
      return forgotten > since || after(groupOf({ path }), since) || tags.some((tag) => after(groupOf({ tag }), since));
    },
  };
}
