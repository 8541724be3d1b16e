import { createMemoryWindows, type ClientWindows, type MemoryWindows } from '../edge/client-windows.ts';
import { KEY_PREFIX, type RedisConnection } from './redis-connection.ts';

// Per-client rate-limit windows in the Redis every replica shares (REDIS_URL): the host's own
// limits (server/edge/rate-limit.ts) and the app's `context.limit` (server/writes/client-limits.ts)
// count a client's calls on every replica together, so switching replicas gets it no new window.
//
// A fixed window is INCR, then PEXPIRE NX (only the call that opened the window sets its end),
// then PTTL, in one MULTI: atomic, so two replicas counting at once never both open a window or
// leave a key without an end. Redis's own clock ends the window, so replicas' clocks may differ.
//
// Every call is also counted in this replica's memory, and when Redis fails or is slow
// (REDIS_TIMEOUT_MS, one outage line, counted) the memory's count answers: the limit then holds
// per replica, as without Redis, and never costs a 5xx or a wait past the timeout.

const PREFIX = `${KEY_PREFIX}window:`;
/** DECR only a window that is still open: on an ended one it would make a key with no end. */
const UNDO = "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end return 0";

export function createRedisWindows(redis: RedisConnection, memory: MemoryWindows = createMemoryWindows()): ClientWindows {
  return {
    async hit(key, windowMs) {
      const local = memory.hit(key, windowMs);
      const replies = await redis.bounded(
        (client) =>
          client
            .multi()
            .incr(PREFIX + key)
            .pExpire(PREFIX + key, windowMs, 'NX')
            .pTTL(PREFIX + key)
            .exec(),
        undefined,
      );
      if (replies === undefined) return local;
      const [count, , ttl] = replies as unknown as [number, number, number];
      // PTTL is -1 only for a key without an end, which PEXPIRE NX has just given one: never, but a window must end.
      return { count, resetAt: Date.now() + (ttl > 0 ? ttl : windowMs) };
    },
    async undo(key) {
      memory.undo(key);
      await redis.bounded((client) => client.eval(UNDO, { keys: [PREFIX + key] }), undefined);
    },
    async forget(key) {
      memory.forget(key);
      await redis.bounded((client) => client.del(PREFIX + key), undefined);
    },
  };
}
