import { createLogger } from '../../server/observe/logger.ts';
import { loadConfig } from '../../server/config/config.ts';
import { connectFleet } from '../../server/fleet/fleet-connections.ts';
import { createRedisStore } from '../../server/pages/redis-store.ts';
import type { SharedStore } from '../../server/observe/metrics.ts';
import { ServerLog } from '../../tools/harness/server-log.ts';
import { createTestApp, type TestApp } from './test-app.ts';

export interface FleetReplica extends TestApp {
  /** The shared stores' own lines (outage, recovery, a malformed entry), apart from the app's; each names its store's variable. */
  storeLog: ServerLog;
  /** Failed or timed-out Redis calls, by store, as app_cache_store_failures_total counts them. */
  outages: Record<SharedStore, number>;
  /** Resolves once its connections to Redis are up: calls before then are held by this replica alone. */
  connected(): Promise<void>;
}

/** Redis on loopback connects in milliseconds. */
const CONNECT_WITHIN_MS = 5_000;

/**
 * One replica of a fleet as server/index.ts wires it (server/fleet/fleet-connections.ts): its
 * state in the Redis at `stateUrl` (REDIS_URL) and its stored pages in the one at `pagesUrl`
 * (CACHE_REDIS_URL). Tests of one role or the other may give both roles one test Redis: the host
 * refuses that at boot (two roles, one eviction policy), and the keys never meet. Close it with `close()`.
 */
export function fleetReplica(stateUrl: string, timeoutMs: number, env: Record<string, string> = {}, pagesUrl = stateUrl): FleetReplica {
  const storeLog = new ServerLog();
  const outages: Record<SharedStore, number> = { state: 0, pages: 0 };
  const logger = createLogger(loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'debug' }), storeLog);
  const cacheConfig = { redisUrl: stateUrl, pagesRedisUrl: pagesUrl, redisTimeoutMs: timeoutMs, maxBytes: 0, revalidateToken: undefined };
  const fleet = connectFleet(cacheConfig, logger, { cacheStoreFailure: (store) => (outages[store] += 1) });
  const deps = {
    cacheStore: createRedisStore(fleet.pages!, logger),
    invalidations: fleet.invalidations,
    windows: fleet.windows,
    reportProofs: { spent: fleet.spentProofs! },
  };
  const app = createTestApp(env, deps);
  const close = app.close;
  return Object.assign(app, {
    storeLog,
    outages,
    async connected() {
      const deadline = Date.now() + CONNECT_WITHIN_MS;
      while (!fleet.ready()) {
        if (Date.now() > deadline) throw new Error(`no connection to ${stateUrl} and ${pagesUrl} within ${CONNECT_WITHIN_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: async () => {
      await close();
      await fleet.close();
    },
  });
}
