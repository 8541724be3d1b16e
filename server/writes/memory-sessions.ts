// Server-held sessions (./session-store.ts) in this process's memory: the tests' apps, and a
// process given no other store. Bounded: past the cap the session closest to its end goes first.
import type { SessionRecord, SessionStore } from './session-store.ts';

/**
 * Sessions one process keeps at most. A session is a few hundred bytes (its data is capped at
 * MAX_SESSION_BYTES: ./session.ts), so this is tens of MB at worst, and a flood of new visitors
 * cannot grow the heap past it.
 */
export const MEMORY_SESSIONS_CAP = 100_000;

export function createMemorySessionStore(now: () => number = Date.now, cap = MEMORY_SESSIONS_CAP): SessionStore {
  const records = new Map<string, SessionRecord & { expiresAt: number }>();
  const live = (id: string) => {
    const record = records.get(id);
    if (record !== undefined && record.expiresAt <= now()) records.delete(id);
    return records.get(id);
  };
  const put = (id: string, record: SessionRecord, ttlMs: number) => {
    records.delete(id); // insertion order is expiry order: every write lasts ttlMs from now
    if (records.size >= cap) records.delete(records.keys().next().value!);
    records.set(id, { ...record, expiresAt: now() + ttlMs });
  };
  return {
    kind: 'memory',
    read(id) {
      const record = live(id);
      return Promise.resolve(record && { data: record.data, user: record.user });
    },
    create(id, record, ttlMs) {
      put(id, record, ttlMs);
      return Promise.resolve();
    },
    update(id, record, ttlMs) {
      if (live(id) !== undefined) put(id, record, ttlMs);
      return Promise.resolve();
    },
    remove(id) {
      records.delete(id);
      return Promise.resolve();
    },
    removeUser(user) {
      for (const [id, record] of records) if (record.user === user) records.delete(id);
      return Promise.resolve();
    },
  };
}
