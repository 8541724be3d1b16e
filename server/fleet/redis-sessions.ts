// Server-held sessions (server/writes/session-store.ts) in the Redis every replica shares
// (REDIS_URL, the state's server: it never evicts, so a page cache filling up cannot sign anyone
// out). A session is one key that expires with it; a user's ids are a sorted set beside it, scored
// by their ends, for "sign out everywhere": trimmed of ended ids at each write, and capped, the
// oldest sessions signed out past the cap, so no set grows without bound. Every call is bounded
// (REDIS_TIMEOUT_MS, the outage told once); reads fail open and writes closed (the store's contract).
import { KEY_PREFIX, type RedisConnection } from './redis-connection.ts';
import { SessionStoreUnavailableError, type SessionRecord, type SessionStore } from '../writes/session-store.ts';

const SESSION = `${KEY_PREFIX}session:`;
const USER = `${KEY_PREFIX}session-user:`;
/**
 * Sessions one user keeps at once: more devices than anyone signs in on. Past it the oldest is
 * signed out, so signing in again and again under one name (the demo has no passwords) cannot
 * grow a set, or "sign out everywhere"'s work, without bound.
 */
export const MAX_SESSIONS_PER_USER = 100;

/**
 * Writes a session and indexes it under its user, in one step. KEYS: the session, its user's set
 * (the session's own key again when it has no user). ARGV: the record, its time to live (ms),
 * the id, now (ms), the cap, the session prefix, 'XX' to update only a session that still exists,
 * '1' when it has a user. Returns 0 when an update found no session (it was signed out meanwhile).
 */
const WRITE = `local set
if ARGV[7] == 'XX' then set = redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'XX')
else set = redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
if not set then return 0 end
if ARGV[8] == '1' then
  redis.call('ZADD', KEYS[2], tonumber(ARGV[4]) + tonumber(ARGV[2]), ARGV[3])
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[4])
  local extra = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[5])
  if extra > 0 then
    for _, old in ipairs(redis.call('ZRANGE', KEYS[2], 0, extra - 1)) do redis.call('DEL', ARGV[6] .. old) end
    redis.call('ZREMRANGEBYRANK', KEYS[2], 0, extra - 1)
  end
  redis.call('PEXPIREAT', KEYS[2], redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')[2])
end
return 1`;
/** A user's sessions and their set, in one step: no session of theirs is made between the read and the deletes. */
const REMOVE_USER = `local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
for _, id in ipairs(ids) do redis.call('DEL', ARGV[1] .. id) end
redis.call('DEL', KEYS[1])
return #ids`;

function parsed(text: unknown): SessionRecord | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const record = JSON.parse(text) as Partial<SessionRecord>;
    if (typeof record.data !== 'object' || record.data === null) return undefined;
    return { data: record.data, user: typeof record.user === 'string' ? record.user : undefined };
  } catch {
    return undefined; // not ours, or cut short: no session
  }
}

const FAILED = Symbol('failed');

export function createRedisSessionStore(redis: RedisConnection, now: () => number = Date.now): SessionStore {
  /** A write the store could not make: thrown, so nothing looks done that is not. */
  const must = async (what: string, work: Parameters<RedisConnection['bounded']>[0]) => {
    if ((await redis.bounded(work, FAILED)) === FAILED) throw new SessionStoreUnavailableError(what);
  };
  const write = (id: string, { data, user }: SessionRecord, ttlMs: number, mode: '' | 'XX') =>
    must('a session not written', (client) =>
      client.eval(WRITE, {
        keys: [SESSION + id, user === undefined ? SESSION + id : USER + user],
        arguments: [
          JSON.stringify({ data, user }),
          String(ttlMs),
          id,
          String(now()),
          String(MAX_SESSIONS_PER_USER),
          SESSION,
          mode,
          user === undefined ? '' : '1',
        ],
      }),
    );
  return {
    kind: 'redis',
    read: async (id) => parsed(await redis.bounded((client) => client.get(SESSION + id), undefined)),
    create: (id, record, ttlMs) => write(id, record, ttlMs, ''),
    update: (id, record, ttlMs) => write(id, record, ttlMs, 'XX'),
    remove: (id) => must('a sign-out not done', (client) => client.del(SESSION + id)),
    removeUser: (user) =>
      must('a sign-out everywhere not done', (client) => client.eval(REMOVE_USER, { keys: [USER + user], arguments: [SESSION] })),
  };
}
