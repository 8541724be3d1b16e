import type { CachePolicy } from '../../shared/cache-policy.ts';
import type { RevalidateTarget } from '../../shared/host-context.ts';

// A route module's `cache` export (shared/cache-policy.ts), checked once per module: a
// malformed one is a mistake of the app's, said in one line, and the route is then never stored.

/** A year: past it "reuse" means "forever", which a release ends anyway (entries are keyed by it). */
export const MAX_REVALIDATE_S = 365 * 24 * 60 * 60;
/** A tag is a name an action revalidates by: short, printable, bounded in number. */
const TAG = /^[\w.:/-]{1,64}$/;
const MAX_TAGS = 16;

export type CheckedPolicy = { revalidateMs: number; tags: readonly string[] } | { problem: string };

export function checkCachePolicy(value: unknown): CheckedPolicy | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) return { problem: 'cache must be an object { revalidate, tags? }' };
  const { revalidate, tags = [] } = value as Partial<CachePolicy>;
  if (typeof revalidate !== 'number' || !Number.isInteger(revalidate) || revalidate < 1 || revalidate > MAX_REVALIDATE_S) {
    return { problem: `cache.revalidate must be a whole number of seconds from 1 to ${MAX_REVALIDATE_S}` };
  }
  if (!Array.isArray(tags) || tags.length > MAX_TAGS || !tags.every((tag) => typeof tag === 'string' && TAG.test(tag))) {
    return { problem: `cache.tags must be at most ${MAX_TAGS} names of 1 to 64 letters, digits or . : / - _` };
  }
  return { revalidateMs: revalidate * 1000, tags: [...(tags as string[])] };
}

/** A tag given to context.revalidate or the endpoint: the same rule as a route's. */
export function isTag(value: unknown): value is string {
  return typeof value === 'string' && TAG.test(value);
}

/** Paths are the pages' own (`/about`): no query, bounded like a request target (server/edge/http-server.ts). */
const MAX_PATH = 2048;

/** A revalidation's target as given (an action's or the endpoint's), checked; a string says what is wrong. */
export function checkTarget(value: unknown): RevalidateTarget | string {
  if (typeof value !== 'object' || value === null) return 'expected { "path": "/about" } or { "tag": "about" }';
  const { path, tag } = value as { path?: unknown; tag?: unknown };
  if ((path === undefined) === (tag === undefined)) return 'name exactly one of path or tag';
  if (tag !== undefined) return isTag(tag) ? { tag } : 'tag must be 1 to 64 letters, digits or . : / - _';
  if (typeof path !== 'string' || !path.startsWith('/') || path.length > MAX_PATH || /[?#\s]/.test(path)) {
    return `path must be a page's path: starting with /, no query, at most ${MAX_PATH} characters`;
  }
  return { path };
}
