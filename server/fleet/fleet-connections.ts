import type { Logger } from 'pino';
import type { CacheConfig } from '../config/cache-config.ts';
import type { Metrics, SharedStore } from '../observe/metrics.ts';
import { CONNECTION_NAME, createRedisConnection, PAGES_SUFFIX } from './redis-connection.ts';
import { watchEvictionPolicy } from './eviction-policy.ts';
import { createInvalidationChannel } from './redis-invalidations.ts';
import { createRedisSpentProofs } from './redis-spent-proofs.ts';
import { createRedisWindows } from './redis-windows.ts';
import { createRedisSessionStore } from './redis-sessions.ts';

// The fleet's Redis, each role on a server of its own (docs/deploy.md, "Redis"): the state
// (REDIS_URL: rate-limit windows, spent report proofs, sessions, the invalidation channel; never evicting)
// and stored pages (CACHE_REDIS_URL: a cache, evicting the least recently used). Without one,
// what it would hold stays in each process.

/** Each connection's lines name the variable they are about. */
const VARIABLE: Record<SharedStore, string> = { state: 'REDIS_URL', pages: 'CACHE_REDIS_URL' };

export type FleetConnections = ReturnType<typeof connectFleet>;

export function connectFleet(config: CacheConfig, logger: Logger, metrics?: Pick<Metrics, 'cacheStoreFailure'>) {
  const connect = (url: string | undefined, store: SharedStore) =>
    url === undefined
      ? undefined
      : createRedisConnection({
          url,
          timeoutMs: config.redisTimeoutMs,
          logger: logger.child({ store: VARIABLE[store] }),
          onOutage: metrics && (() => metrics.cacheStoreFailure(store)),
          name: store === 'pages' ? CONNECTION_NAME + PAGES_SUFFIX : CONNECTION_NAME,
        });
  const state = connect(config.redisUrl, 'state');
  const pages = connect(config.pagesRedisUrl, 'pages');
  if (state !== undefined) watchEvictionPolicy(state, logger);
  // Over the state's Redis where there is one: a publish stores nothing there.
  const channelOn = state ?? pages;
  return {
    /** The stored pages' Redis, for server/pages/redis-store.ts. */
    pages,
    windows: state && createRedisWindows(state),
    spentProofs: state && createRedisSpentProofs(state),
    /** Server-held sessions, in the state's Redis (never evicting). */
    sessions: state && createRedisSessionStore(state),
    invalidations: channelOn && createInvalidationChannel(channelOn),
    /** Whether every connection is up (the tests wait for it). */
    ready: () => [state, pages].every((connection) => connection === undefined || connection.client.isReady),
    async close() {
      await Promise.all([state?.close(), pages?.close()]);
    },
  };
}
