import { createClient } from 'redis';
import type { Logger } from 'pino';

// The process's one connection to the Redis every replica shares (REDIS_URL): stored pages
// (server/pages/redis-store.ts), rate-limit windows (redis-windows.ts) and spent report proofs
// (redis-spent-proofs.ts) all go through it, and only the page cache's invalidations use a
// second one, subscribed (kept apart so the calls' socket carries only their replies). The client
// is node-redis (`redis`), the one Redis itself maintains.
//
// Redis is shared state, never a dependency: every call is bounded by REDIS_TIMEOUT_MS, and a
// call that fails or times out answers its fallback (a page renders as without a cache, a limit
// or a proof is held by this replica's memory). The first failure of an outage is one warn
// line, and every failure is counted (`onOutage`: app_cache_store_failures_total).

/** Every key the host writes starts so: a Redis shared with other software keeps them apart. */
export const KEY_PREFIX = 'rsh:';
/** Between reconnection attempts while Redis is away: soon enough to recover, rare enough to cost nothing. */
const RECONNECT_MAX_MS = 2_000;
/** The connection's name in CLIENT LIST; the subscribed one (the page cache's invalidations) adds SUBSCRIBER_SUFFIX. */
export const CONNECTION_NAME = 'react-ssr-host';
export const SUBSCRIBER_SUFFIX = ':subscriber';
export const OUTAGE_MESSAGE = 'shared store unreachable: pages render without the cache, limits and proofs hold per replica';
export const RECOVERED_MESSAGE = 'shared store reachable again';

export interface RedisConnectionOptions {
  url: string;
  timeoutMs: number;
  logger: Logger;
  /** Counted once per failed or timed-out call (app_cache_store_failures_total). */
  onOutage?: () => void;
}


export interface RedisConnection {
  readonly client: RedisClient;
  /** One call, bounded: its answer, or `fallback` after a failure or REDIS_TIMEOUT_MS (then counted, and told once per outage). */
  bounded<T, F>(work: (client: RedisClient) => Promise<T>, fallback: F): Promise<T | F>;
  /** Calls `listener` with each message on `channel`, over a second connection made on first use. */
  subscribe(channel: string, listener: (message: string) => void): void;
  /** After the drain nothing waits on a reply; a graceful close would wait for a Redis that may be gone. */
  close(): Promise<void>;
}

/** Connecting takes round trips a call does not (TCP, TLS for rediss://, the HELLO handshake): at least a second, whatever REDIS_TIMEOUT_MS. */
const connectTimeoutMs = (timeoutMs: number) => Math.max(timeoutMs, 1_000);

/** The client, with the options every call relies on. */
function newClient(url: string, timeoutMs: number) {
  return createClient({
    url,
    // What CLIENT LIST shows an operator: the host's connections among others on a shared Redis.
    name: CONNECTION_NAME,
    // A command while disconnected fails at once rather than waiting in a queue.
    disableOfflineQueue: true,
    commandOptions: { timeout: timeoutMs },
    // node-redis 6 speaks RESP3 (Redis 6+; the host's PEXPIRE NX/GT already need 7.0), which turns
    // Redis Enterprise's maintenance notices on by default: a DNS lookup and a command open-source
    // Redis refuses on every (re)connection, and relaxed timeouts during maintenance. The host
    // bounds every call itself (REDIS_TIMEOUT_MS) and follows no endpoint moves: off.
    maintNotifications: 'disabled',
    socket: {
      connectTimeout: connectTimeoutMs(timeoutMs),
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, RECONNECT_MAX_MS),
    },
  });
}

/** node-redis's type of it names the protocol its options chose (RESP3, node-redis 6's default). */
export type RedisClient = ReturnType<typeof newClient>;

export function createRedisConnection({ url, timeoutMs, logger, onOutage }: RedisConnectionOptions): RedisConnection {
  const client = newClient(url, timeoutMs);
  /** Made and connected on the first subscribe(). */
  let subscriber: { connection: RedisClient; connected: Promise<RedisClient> } | undefined;
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

  // Connected in the background: the host serves (without the store) while Redis is not there yet.
  // A Redis away at start-up keeps connect() pending while it retries: past the connect timeout, calls that fail are an outage.
  setTimeout(() => (connecting = false), connectTimeoutMs(timeoutMs)).unref();
  client.connect().then(
    () => (connecting = false),
    (error: unknown) => {
      connecting = false;
      failed(error);
    },
  );

  return {
    client,
    async bounded(work, fallback) {
      // Offline, a MULTI waits for the next reconnection attempt whatever disableOfflineQueue says
      // (node-redis 5 and 6): fail at once instead of holding the request until the timeout.
      if (!client.isReady) {
        failed(new Error('no connection to Redis: reconnecting'));
        return fallback;
      }
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      const call = ++calls;
      try {
        const value = await Promise.race([work(client), timeout]);
        succeeded(call);
        return value;
      } catch (error) {
        failed(error);
        return fallback;
      } finally {
        clearTimeout(timer);
      }
    },
    subscribe(channel, listener) {
      subscriber ??= (() => {
        const connection = client.duplicate({ name: CONNECTION_NAME + SUBSCRIBER_SUFFIX });
        connection.on('error', () => undefined);
        return { connection, connected: connection.connect() };
      })();
      // A listener must not throw out of the client's socket handler (every replica would exit at once).
      const deliver = (message: string) => {
        try {
          listener(message);
        } catch {
          // a message that is not one of ours: a shared Redis may carry anything on a channel
        }
      };
      subscriber.connected.then((connection) => connection.subscribe(channel, deliver)).catch(failed);
    },
    close() {
      client.destroy();
      subscriber?.connection.destroy();
      return Promise.resolve();
    },
  };
}
