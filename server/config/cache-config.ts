import { ConfigError, integer, secret, type Env } from './config-values.ts';

// Stored pages (docs/caching.md): how much this process keeps in memory, or the Redis every
// replica shares, how long any Redis call may take, and the token of the revalidation endpoint.

export interface CacheConfig {
  /** The memory store's bound (least recently used out); 0 turns stored pages off. Unused with Redis. */
  readonly maxBytes: number;
  /** `redis://` or `rediss://`: entries and invalidations shared by the fleet (server/pages/redis-store.ts). */
  readonly redisUrl: string | undefined;
  /** Past it a Redis call counts as an outage and the page renders as without a cache. */
  readonly redisTimeoutMs: number;
  /** Enables POST /_revalidate for requests that send it (server/pages/revalidate-endpoint.ts). */
  readonly revalidateToken: string | undefined;
}

/**
 * 64 MiB: the demo's pages are 10–40 KB each, so thousands of entries, beside a process that
 * idles at about 100 MB RSS (docs/performance.md). A site with more pages raises it or sets REDIS_URL.
 */
export const DEFAULT_CACHE_MAX_BYTES = 64 * 1024 * 1024;
const MAX_CACHE_MAX_BYTES = 16 * 1024 * 1024 * 1024;
/**
 * A Redis GET on the same network answers in well under a millisecond; 50 ms means it is
 * overloaded or unreachable, and a render (a few ms for the demo's pages) beats waiting longer.
 */
export const DEFAULT_REDIS_TIMEOUT_MS = 50;

function redisUrl(env: Env): string | undefined {
  const raw = env.REDIS_URL;
  if (raw === undefined || raw === '') return undefined;
  try {
    const url = new URL(raw);
    if ((url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '') return raw;
  } catch {
    // reported below, without the value: it may carry a password
  }
  throw new ConfigError('REDIS_URL', '<redacted>', 'a URL such as redis://redis:6379 or rediss://user:password@host:6380/0');
}

export function cacheConfig(env: Env): CacheConfig {
  return Object.freeze({
    maxBytes: integer(env, 'CACHE_MAX_BYTES', DEFAULT_CACHE_MAX_BYTES, 0, MAX_CACHE_MAX_BYTES),
    redisUrl: redisUrl(env),
    redisTimeoutMs: integer(env, 'REDIS_TIMEOUT_MS', DEFAULT_REDIS_TIMEOUT_MS, 1, 5_000),
    revalidateToken: secret(env, 'REVALIDATE_TOKEN'),
  });
}
