import { createClient, ErrorReply } from 'redis';
import type { Logger } from 'pino';
import { storeReachability } from './store-reachability.ts';

// The process's one connection to the Redis every replica shares (REDIS_URL): stored pages
// (server/pages/redis-store.ts), rate-limit windows (redis-windows.ts) and spent report proofs
// (redis-spent-proofs.ts) all go through it, and only the page cache's invalidations use a
// second one, subscribed (kept apart so the calls' socket carries only their replies). The client
// is node-redis (`redis`), the one Redis itself maintains.
//
// Redis is shared state, never a dependency: every call is bounded by REDIS_TIMEOUT_MS, and a
// call that fails or times out answers its fallback (a page renders as without a cache, a limit
// or a proof is held by this replica's memory). Every failure is counted (`onOutage`:
// app_cache_store_failures_total); what is told as an outage, and its end, is
// store-reachability.ts's rule.

/** Every key the host writes starts so: a Redis shared with other software keeps them apart. */
export const KEY_PREFIX = 'rsh:';
/** Between reconnection attempts while Redis is away: soon enough to recover, rare enough to cost nothing. */
const RECONNECT_MAX_MS = 2_000;
/** The connection's name in CLIENT LIST; the subscribed one (the page cache's invalidations) adds SUBSCRIBER_SUFFIX. */
export const CONNECTION_NAME = 'react-ssr-host';
export const SUBSCRIBER_SUFFIX = ':subscriber';
/** The stored pages' connection (CACHE_REDIS_URL) is named apart from the state's. */
export const PAGES_SUFFIX = ':pages';
export { OUTAGE_MESSAGE, RECOVERED_MESSAGE } from './store-reachability.ts';

export interface RedisConnectionOptions {
  url: string;
  timeoutMs: number;
  logger: Logger;
  /** Counted once per failed or timed-out call (app_cache_store_failures_total). */
  onOutage?: () => void;
  /** Its name in CLIENT LIST: CONNECTION_NAME unless told. */
  name?: string;
}

export interface RedisConnection {
  readonly client: RedisClient;
  /** One call, bounded: its answer, or `fallback` after a failure or REDIS_TIMEOUT_MS (then counted). */
  bounded<T, F>(work: (client: RedisClient) => Promise<T>, fallback: F): Promise<T | F>;
  /** Calls `listener` with each message on `channel`, over a second connection made on first use. */
  subscribe(channel: string, listener: (message: string) => void): void;
  /** After the drain nothing waits on a reply; a graceful close would wait for a Redis that may be gone. */
  close(): Promise<void>;
}

/** Connecting takes round trips a call does not (TCP, TLS for rediss://, the HELLO handshake): at least a second, whatever REDIS_TIMEOUT_MS. */
const MIN_CONNECT_TIMEOUT_MS = 1_000;

/** The client, with the options every call relies on. */
function newClient(url: string, timeoutMs: number, name: string) {
  return createClient({
    url,
    // What CLIENT LIST shows an operator: the host's connections among others on a shared Redis.
    name,
    // A command while disconnected fails at once rather than waiting in a queue.
    disableOfflineQueue: true,
    commandOptions: { timeout: timeoutMs },
    // node-redis 6 speaks RESP3 (Redis 6+; the host's PEXPIRE NX/GT already need 7.0), which turns
    // Redis Enterprise's maintenance notices on by default: a DNS lookup and a command open-source
    // Redis refuses on every (re)connection, and relaxed timeouts during maintenance. The host
    // bounds every call itself (REDIS_TIMEOUT_MS) and follows no endpoint moves: off.
    maintNotifications: 'disabled',
    socket: {
      connectTimeout: Math.max(timeoutMs, MIN_CONNECT_TIMEOUT_MS),
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, RECONNECT_MAX_MS),
    },
  });
}

/** node-redis's type of it names the protocol its options chose (RESP3, node-redis 6's default). */
export type RedisClient = ReturnType<typeof newClient>;

/** What a call's timer settles with: no reply within REDIS_TIMEOUT_MS. */
const TIMED_OUT = Symbol('timed out');

export function createRedisConnection({
  url,
  timeoutMs,
  logger,
  onOutage,
  name = CONNECTION_NAME,
}: RedisConnectionOptions): RedisConnection {
  const client = newClient(url, timeoutMs, name);
  const reachability = storeReachability(logger);
  /** Made and connected on the first subscribe(). */
  let subscriber: { connection: RedisClient; connected: Promise<RedisClient> } | undefined;
  let closed = false;

  // node-redis's events (@redis/client's lib/client/socket.js): 'error' for a dropped connection,
  // then 'reconnecting' and an attempt at once; 'error' again for each attempt that fails,
  // 'reconnecting' before the next; 'ready' once one succeeds. The first connect() is an attempt
  // too. So an 'error' while attempting is a failed attempt, and one before is only the drop.
  let attempting = true;
  client.on('reconnecting', () => (attempting = true));
  client.on('ready', () => {
    attempting = false;
    if (!closed) reachability.connected();
  });
  client.on('error', (error: unknown) => {
    if (attempting && !closed) reachability.attemptFailed(error);
  });
  // Connected in the background: the host serves (without the store) while Redis is not there
  // yet. connect() settles once connected, or rejects if closed first: nothing to tell then.
  client.connect().catch(() => undefined);

  return {
    client,
    async bounded(work, fallback) {
      // Offline, a MULTI waits for the next reconnection attempt whatever disableOfflineQueue says
      // (node-redis 5 and 6): fail at once instead of holding the request until the timeout.
      if (!client.isReady) {
        onOutage?.();
        return fallback;
      }
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
      });
      try {
        const value = await Promise.race([work(client), timeout]);
        if (value !== TIMED_OUT) {
          reachability.answered();
          return value;
        }
        reachability.timedOut();
      } catch (error) {
        // An error reply is Redis answering (a shared Redis refusing a write: OOM, a key of
        // another type); anything else is the connection failing, which its events tell.
        if (error instanceof ErrorReply) reachability.answered();
      } finally {
        clearTimeout(timer);
      }
      onOutage?.();
      return fallback;
    },
    subscribe(channel, listener) {
      subscriber ??= (() => {
        const connection = client.duplicate({ name: name + SUBSCRIBER_SUFFIX });
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
      // Its failures are counted; the main connection, to the same Redis, tells the outage.
      subscriber.connected.then((connection) => connection.subscribe(channel, deliver)).catch(() => onOutage?.());
    },
    close() {
      closed = true;
      client.destroy();
      subscriber?.connection.destroy();
      return Promise.resolve();
    },
  };
}
