/**
 * How long a route's page may be reused (its module's `cache` export, checked by the host:
 * server/pages/cache-policy.ts): fresh for `revalidate` seconds, then served stale while one
 * regeneration per replica runs. `tags` name it for `revalidate({ tag })` (docs/caching.md).
 */
export interface CachePolicy {
  revalidate: number;
  tags?: readonly string[];
}
