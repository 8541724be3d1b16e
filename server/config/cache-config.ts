import { ConfigError, integer, secret, type Env } from './config-values.ts';

// The fleet's shared state and stored pages (docs/caching.md, docs/deploy.md): the Redis whose
// keys hold what a client must not get around (rate-limit windows, spent report proofs; it must
// never evict them), the Redis stored pages may fill (another server: eviction is its job), how
// much this process keeps in memory without one, how long any Redis call may take, and the token
// of the revalidation endpoint.

export interface CacheConfig {
  /** The memory store's bound (least recently used out); 0 turns stored pages off. Unused with Redis. */
  readonly maxBytes: number;
  /** REDIS_URL: the fleet's state (server/fleet/): limits, proofs, and the channel invalidations take. Never evicting. */
  readonly redisUrl: string | undefined;
  /** CACHE_REDIS_URL: stored pages shared by the fleet (server/pages/redis-store.ts), on a server of their own. */
  readonly pagesRedisUrl: string | undefined;
  /** Past it a Redis call counts as an outage and the page renders as without a cache. */
  readonly redisTimeoutMs: number;
  /** Enables POST /_revalidate for requests that send it (server/pages/revalidate-endpoint.ts). */
  readonly revalidateToken: string | undefined;
}

/** Whether this process shares anything through a Redis (server/fleet/fleet-connections.ts): only then is Redis's client loaded. */
export const sharesThroughRedis = (config: CacheConfig): boolean => config.redisUrl !== undefined || config.pagesRedisUrl !== undefined;

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

function redisUrl(env: Env, name: 'REDIS_URL' | 'CACHE_REDIS_URL'): URL | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  try {
    const url = new URL(raw);
    if ((url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '') return url;
  } catch {
    // reported below, without the value: it may carry a password
  }
  throw new ConfigError(name, '<redacted>', 'a URL such as redis://redis:6379 or rediss://user:password@host:6380/0');
}

/** Redis's default port, for telling whether two URLs name one server. */
const REDIS_PORT = '6379';
const serverOf = (url: URL) => `${url.hostname.toLowerCase()}:${url.port || REDIS_PORT}`;

/**
 * The two Redis URLs, refused when they name one server: maxmemory and its eviction are a
 * server's, whatever the database number, so pages filling it would evict the state beside them.
 */
function redisUrls(env: Env): { redisUrl?: string; pagesRedisUrl?: string } {
  const state = redisUrl(env, 'REDIS_URL');
  const pages = redisUrl(env, 'CACHE_REDIS_URL');
  if (state !== undefined && pages !== undefined && serverOf(state) === serverOf(pages)) {
    throw new ConfigError(
      'CACHE_REDIS_URL',
      '<redacted>',
      'another Redis server than REDIS_URL: stored pages filling one server would evict its limits and proofs (docs/deploy.md)',
    );
  }
  // As written: the client reads the URL itself, and a normalised one could differ from what the operator gave.
  return { redisUrl: state && env.REDIS_URL, pagesRedisUrl: pages && env.CACHE_REDIS_URL };
}

export function cacheConfig(env: Env): CacheConfig {
  return Object.freeze({
    maxBytes: integer(env, 'CACHE_MAX_BYTES', DEFAULT_CACHE_MAX_BYTES, 0, MAX_CACHE_MAX_BYTES),
    ...{ redisUrl: undefined, pagesRedisUrl: undefined, ...redisUrls(env) },
    redisTimeoutMs: integer(env, 'REDIS_TIMEOUT_MS', DEFAULT_REDIS_TIMEOUT_MS, 1, 5_000),
    revalidateToken: secret(env, 'REVALIDATE_TOKEN'),
  });
}
