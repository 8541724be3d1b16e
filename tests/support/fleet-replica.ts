import { createLogger } from '../../server/observe/logger.ts';
import { loadConfig } from '../../server/config/config.ts';
import { createRedisConnection, type RedisConnection } from '../../server/fleet/redis-connection.ts';
import { createRedisSpentProofs } from '../../server/fleet/redis-spent-proofs.ts';
import { createRedisWindows } from '../../server/fleet/redis-windows.ts';
import { createRedisStore } from '../../server/pages/redis-store.ts';
import type { Renderer } from '../../shared/page-seam.ts';
import { ServerLog } from '../../tools/harness/server-log.ts';
import { createTestApp, type TestApp } from './test-app.ts';

export interface FleetReplica extends TestApp {
  /** The shared store's own lines (outage, recovery), apart from the app's. */
  storeLog: ServerLog;
  /** Failed or timed-out Redis calls, as app_cache_store_failures_total counts them. */
  outages: { count: number };
  connection: RedisConnection;
  /** Resolves once its connection to Redis is up: calls before then are held by this replica alone. */
  connected(): Promise<void>;
}

/** Redis on loopback connects in milliseconds. */
const CONNECT_WITHIN_MS = 5_000;

/**
 * One replica of a fleet as server/index.ts wires it with REDIS_URL: one connection to `redisUrl`
 * holding its stored pages, rate-limit windows and spent report proofs. Close it with `close()`.
 */
export function fleetReplica(redisUrl: string, timeoutMs: number, env: Record<string, string> = {}, renderer?: Renderer): FleetReplica {
  const storeLog = new ServerLog();
  const outages = { count: 0 };
  const logger = createLogger(loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'debug' }), storeLog);
  const connection = createRedisConnection({ url: redisUrl, timeoutMs, logger, onOutage: () => (outages.count += 1) });
  const deps = {
    cacheStore: createRedisStore(connection, logger),
    windows: createRedisWindows(connection),
    reportProofs: { spent: createRedisSpentProofs(connection) },
  };
  const app = createTestApp(env, deps, renderer);
  const close = app.close;
  return Object.assign(app, {
    storeLog,
    outages,
    connection,
    async connected() {
      const deadline = Date.now() + CONNECT_WITHIN_MS;
      while (!connection.client.isReady) {
        if (Date.now() > deadline) throw new Error(`no connection to ${redisUrl} within ${CONNECT_WITHIN_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: async () => {
      await close();
      await connection.close();
    },
  });
}
