import type { Logger } from 'pino';
import { setNewest } from '../../shared/bounded-map.ts';
import { KEY_PREFIX, type RedisConnection } from '../fleet/redis-connection.ts';
import { groupOf, STALE_KEEP_MS, type CacheStore } from './cache-store.ts';
import { readEntry } from './stored-entry.ts';

// Stored pages in a Redis of their own (CACHE_REDIS_URL), shared by every replica: an entry
// written by one answers the others, and an invalidation deletes the entries for all of them
// (docs/caching.md, "Where entries live"). Over its connection (server/fleet/redis-connection.ts),
// which bounds every call: a call that fails or times out is a miss, and the page renders as
// without a cache. That Redis may evict what it likes: it holds nothing but pages.

const PREFIX = `${KEY_PREFIX}page:`;
export const MALFORMED_ENTRY_MESSAGE = 'stored page malformed: answered as a miss';
/** Keys whose malformed entry was told, the newest kept: one line per key, not per request. */
const MAX_TOLD_KEYS = 1_000;
/** What a call answers when Redis did not (the connection's fallback): told apart from any answer Redis gives. */
const NO_ANSWER = Symbol('no answer');

export function createRedisStore(redis: RedisConnection, logger: Logger): CacheStore {
  const told = new Map<string, true>();

  return {
    shared: true,
    async get(key) {
      const raw = await redis.bounded((client) => client.get(PREFIX + key), null);
      if (raw === null) return undefined;
      // Not one of ours, or changed (a shared Redis, a value cut short): a miss, never a 500 (stored-entry.ts).
      const entry = readEntry(raw);
      if (!('problem' in entry)) return entry;
      if (!told.has(key)) logger.warn({ key: PREFIX + key, reason: entry.problem }, MALFORMED_ENTRY_MESSAGE);
      setNewest(told, key, true, MAX_TOLD_KEYS);
      return undefined;
    },
    async set(key, entry) {
      const ttl = entry.revalidateMs + STALE_KEEP_MS;
      const groups = [groupOf({ path: entry.path }), ...entry.tags.map((tag) => groupOf({ tag }))];
      await redis.bounded((client) => {
        const multi = client.multi().set(PREFIX + key, JSON.stringify(entry), { expiration: { type: 'PX', value: ttl } });
        for (const group of groups)
          multi
            .sAdd(PREFIX + group, key)
            .pExpire(PREFIX + group, ttl, 'GT')
            .pExpire(PREFIX + group, ttl, 'NX');
        return multi.exec();
      }, undefined);
    },
    async delete(key) {
      await redis.bounded((client) => client.del(PREFIX + key), 0);
    },
    // Confirmed only when Redis answered every call: otherwise its entries may still stand, and
    // the caller tries again (page-cache.ts retries; the endpoint answers 503).
    async invalidate(target) {
      const group = PREFIX + groupOf(target);
      const keys = await redis.bounded((client) => client.sMembers(group), NO_ANSWER);
      if (keys === NO_ANSWER) return { dropped: 0, confirmed: false };
      const dropped = keys.length === 0 ? 0 : await redis.bounded((client) => client.del(keys.map((key) => PREFIX + key)), NO_ANSWER);
      // Only the members read: one another replica added meanwhile stays findable.
      const removed = keys.length === 0 ? 0 : await redis.bounded((client) => client.sRem(group, keys), NO_ANSWER);
      const confirmed = dropped !== NO_ANSWER && removed !== NO_ANSWER;
      return { dropped: dropped === NO_ANSWER ? 0 : dropped, confirmed };
    },
    // The connection is the process's, shared with limits and proofs: its owner closes it (server/index.ts).
    close: () => Promise.resolve(),
  };
}
