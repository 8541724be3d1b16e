import { createClient } from 'redis';
import type { Logger } from 'pino';
import type { RevalidateTarget } from '../../shared/page-seam.ts';
import { groupOf, STALE_KEEP_MS, type CacheEntry, type CacheStore } from './cache-store.ts';

// Stored pages in Redis (REDIS_URL), shared by every replica: an entry written by one answers
// the others, and an invalidation deletes the entries for all of them and is published so each
// replica forgets what it learned of them (docs/caching.md, "One cache for the fleet"). The
// client is node-redis (`redis`), the one Redis itself maintains.
//
// Redis is an optimisation, never a dependency: every call is bounded by REDIS_TIMEOUT_MS, and a
// call that fails or times out is a miss (the page renders as without a cache). The first
// failure of an outage is one warn line, and every failure is counted (`onOutage`: a metric).

const PREFIX = 'rsh:';
const CHANNEL = `${PREFIX}invalidate`;
/** Between reconnection attempts while Redis is away: soon enough to recover, rare enough to cost nothing. */
const RECONNECT_MAX_MS = 2_000;
export const OUTAGE_MESSAGE = 'page cache store unreachable: rendering without it';
export const RECOVERED_MESSAGE = 'page cache store reachable again';

export interface RedisStoreOptions {
  url: string;
  timeoutMs: number;
  logger: Logger;
  /** Counted once per failed or timed-out call (app_cache_store_failures_total). */
  onOutage?: () => void;
}

export function createRedisStore({ url, timeoutMs, logger, onOutage }: RedisStoreOptions): CacheStore {
  const options = {
    url,
    // A command while disconnected fails at once rather than waiting in a queue.
    disableOfflineQueue: true,
    commandOptions: { timeout: timeoutMs },
    socket: {
      connectTimeout: Math.max(timeoutMs, 1_000),
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, RECONNECT_MAX_MS),
    },
  };
  const client = createClient(options);
  const subscriber = client.duplicate();
  const listeners: ((target: RevalidateTarget) => void)[] = [];
  /** Counts calls: a call answered after the outage began says nothing of recovery if it was sent before. */
  let calls = 0;
  /** The first call sent after the outage began, or undefined while Redis answers. */
  let downFrom: number | undefined;

  /** Until the first connection is made or refused: a call then finds no client yet, which is no outage to tell. */
  let connecting = true;
  const failed = (error: unknown) => {
    onOutage?.();
    if (downFrom !== undefined || connecting) return;
    downFrom = calls + 1;
    logger.warn({ error: { message: error instanceof Error ? error.message : String(error) } }, OUTAGE_MESSAGE);
  };
  /** The first call sent after the client last became ready (connected, or reconnected). */
  let readyFrom = 0;
  client.on('ready', () => (readyFrom = calls + 1));
  const succeeded = (call: number) => {
    // Recovered only once the client has reconnected since the outage began: an answer on the old
    // connection (a transaction queued before it closed) says nothing of Redis now.
    if (downFrom === undefined || call < downFrom || readyFrom < downFrom) return;
    downFrom = undefined;
    logger.info(RECOVERED_MESSAGE);
  };
  // node-redis emits 'error' on every failed reconnection; the calls report the outage once.
  client.on('error', () => undefined);
  subscriber.on('error', () => undefined);

  /** One call, bounded: its answer, or `fallback` after a failure or the timeout. */
  async function bounded<T>(work: () => Promise<T>, fallback: T): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    const call = ++calls;
    try {
      const value = await Promise.race([work(), timeout]);
      succeeded(call);
      return value;
    } catch (error) {
      failed(error);
      return fallback;
    } finally {
      clearTimeout(timer);
    }
  }

  // Connected in the background: the host serves (without a cache) while Redis is not there yet.
  // A Redis away at start-up keeps connect() pending while it retries: past the connect timeout, calls that fail are an outage.
  setTimeout(() => (connecting = false), options.socket.connectTimeout).unref();
  client.connect().then(
    () => (connecting = false),
    (error: unknown) => {
      connecting = false;
      failed(error);
    },
  );
  subscriber
    .connect()
    .then(() =>
      subscriber.subscribe(CHANNEL, (message) => {
        // A shared Redis may carry anything on the channel: a message that is not a target must
        // not throw out of the client's socket handler (every replica would exit at once).
        let target: RevalidateTarget;
        try {
          target = JSON.parse(message) as RevalidateTarget;
        } catch {
          return;
        }
        for (const listener of listeners) listener(target);
      }),
    )
    .catch(failed);

  return {
    kind: 'redis',
    async get(key) {
      const raw = await bounded(() => client.get(PREFIX + key), null);
      if (raw === null) return undefined;
      try {
        return JSON.parse(raw) as CacheEntry;
      } catch {
        // Not one of ours (a shared Redis, a value cut short): a miss, never a 500.
        return undefined;
      }
    },
    async set(key, entry) {
      const ttl = entry.revalidateMs + STALE_KEEP_MS;
      const groups = [groupOf({ path: entry.path }), ...entry.tags.map((tag) => groupOf({ tag }))];
      const multi = client.multi().set(PREFIX + key, JSON.stringify(entry), { expiration: { type: 'PX', value: ttl } });
      for (const group of groups)
        multi
          .sAdd(PREFIX + group, key)
          .pExpire(PREFIX + group, ttl, 'GT')
          .pExpire(PREFIX + group, ttl, 'NX');
      await bounded(() => multi.exec(), undefined);
    },
    async delete(key) {
      await bounded(() => client.del(PREFIX + key), 0);
    },
    async invalidate(target) {
      const group = PREFIX + groupOf(target);
      const keys = await bounded(() => client.sMembers(group), []);
      const dropped = keys.length === 0 ? 0 : await bounded(() => client.del(keys.map((key) => PREFIX + key)), 0);
      // Only the members read: one another replica added meanwhile stays findable.
      if (keys.length > 0) await bounded(() => client.sRem(group, keys), 0);
      await bounded(() => client.publish(CHANNEL, JSON.stringify(target)), 0);
      return dropped;
    },
    onInvalidate(listener) {
      listeners.push(listener);
    },
    close() {
      // After the drain nothing waits on a reply; close() would wait for a Redis that may be gone.
      client.destroy();
      subscriber.destroy();
      return Promise.resolve();
    },
  };
}
