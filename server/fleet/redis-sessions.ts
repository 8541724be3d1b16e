// Server-held sessions (server/writes/session-store.ts) in the Redis every replica shares
// (REDIS_URL, the state's server: it never evicts, so a page cache filling up cannot sign anyone
// out). A session is one key that expires with it; a user's ids are a set beside it, for "sign
// out everywhere". Every call is bounded (REDIS_TIMEOUT_MS, the outage told once): while Redis
// is out, a session reads as none (its visitor is signed out) and a write is lost, never a 5xx.
import { KEY_PREFIX, type RedisConnection } from './redis-connection.ts';
import type { SessionRecord, SessionStore } from '../writes/session-store.ts';

const SESSION = `${KEY_PREFIX}session:`;
const USER = `${KEY_PREFIX}session-user:`;
/** The user's sessions and their set, in one step: no session of theirs is made between the read and the deletes. */
const REMOVE_USER = `local ids = redis.call('SMEMBERS', KEYS[1])
for _, id in ipairs(ids) do redis.call('DEL', ARGV[1] .. id) end
redis.call('DEL', KEYS[1])
return #ids`;

function parsed(text: string | null | undefined): SessionRecord | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const record = JSON.parse(text) as Partial<SessionRecord>;
    if (typeof record.data !== 'object' || record.data === null) return undefined;
    return { data: record.data, user: typeof record.user === 'string' ? record.user : undefined };
  } catch {
    return undefined; // not ours, or cut short: no session
  }
}

export function createRedisSessionStore(redis: RedisConnection): SessionStore {
  return {
    kind: 'redis',
    read: async (id) => parsed(await redis.bounded((client) => client.get(SESSION + id), undefined)),
    async write(id, record, ttlMs) {
      await redis.bounded((client) => {
        const step = client.multi().set(SESSION + id, JSON.stringify(record), { expiration: { type: 'PX', value: ttlMs } });
        // The set lasts as long as the user's longest session: NX gives a new set its end, GT lengthens it.
        if (record.user !== undefined)
          step
            .sAdd(USER + record.user, id)
            .pExpire(USER + record.user, ttlMs, 'NX')
            .pExpire(USER + record.user, ttlMs, 'GT');
        return step.exec();
      }, undefined);
    },
    async remove(id) {
      await redis.bounded((client) => client.del(SESSION + id), undefined);
    },
    async removeUser(user) {
      await redis.bounded((client) => client.eval(REMOVE_USER, { keys: [USER + user], arguments: [SESSION] }), undefined);
    },
  };
}
