// The three stores server-held sessions live in (server/writes/session-store.ts), held to one
// contract: a record reads back as written, ends with its time, and goes with its id or with
// its user. Redis (server/fleet/redis-sessions.ts) on a real redis-server; the database
// (server/data/database-sessions.ts) on SQLite and PostgreSQL; memory.
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config/config.ts';
import { openDatabase } from '../../server/data/database.ts';
import { createDatabaseSessionStore } from '../../server/data/database-sessions.ts';
import { createRedisConnection } from '../../server/fleet/redis-connection.ts';
import { createRedisSessionStore, MAX_SESSIONS_PER_USER } from '../../server/fleet/redis-sessions.ts';
import { createLogger } from '../../server/observe/logger.ts';
import { createMemorySessionStore } from '../../server/writes/memory-sessions.ts';
import type { SessionStore } from '../../server/writes/session-store.ts';
import { ServerLog } from '../../tools/harness/server-log.ts';
import { sleep } from '../../tools/harness/net.ts';
import { freshDatabase } from '../support/databases.ts';
import { startRedis } from '../support/redis-server.ts';

/** Short enough to wait out in a test; Redis keeps milliseconds (PX). */
const TTL_MS = 200;
const LONG_MS = 60_000;
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => void (await Promise.all(closers.map((close) => close()))));

const STORES: Record<string, () => Promise<SessionStore>> = {
  memory: () => Promise.resolve(createMemorySessionStore()),
  sqlite: async () => {
    const { db } = await openDatabase(await freshDatabase('sqlite'), []);
    closers.push(() => db.destroy());
    return createDatabaseSessionStore(db);
  },
  postgres: async () => {
    const { db } = await openDatabase(await freshDatabase('postgres'), []);
    closers.push(() => db.destroy());
    return createDatabaseSessionStore(db);
  },
  redis: async () => {
    const redis = await startRedis();
    const logger = createLogger(loadConfig({ NODE_ENV: 'production' }), new ServerLog());
    const connection = createRedisConnection({ url: redis.url, timeoutMs: 1_000, logger });
    closers.push(async () => {
      await connection.close();
      await redis.kill();
    });
    // Connected first: a call before the handshake falls back at once (the store's outage path, not under test here).
    while (!connection.client.isReady) await sleep(10);
    return createRedisSessionStore(connection);
  },
};

describe.each(Object.keys(STORES))('sessions in %s', (name) => {
  const make = STORES[name]!;

  it('reads a record back as made, and as updated', async () => {
    const store = await make();
    await store.create('id-1', { data: { visits: 1, 'host:user': 'ada' }, user: 'ada' }, LONG_MS);
    expect(await store.read('id-1')).toEqual({ data: { visits: 1, 'host:user': 'ada' }, user: 'ada' });
    await store.update('id-1', { data: { visits: 2 }, user: undefined }, LONG_MS);
    expect(await store.read('id-1')).toEqual({ data: { visits: 2 }, user: undefined });
    expect(await store.read('no-such-id')).toBeUndefined();
  });

  it('never brings back a removed or ended record by updating it: a sign-out stays done', async () => {
    const store = await make();
    await store.create('gone', { data: { a: 1 }, user: 'ada' }, LONG_MS);
    await store.remove('gone');
    await store.update('gone', { data: { a: 2 }, user: 'ada' }, LONG_MS);
    expect(await store.read('gone')).toBeUndefined();
    await store.update('never-made', { data: { a: 3 }, user: undefined }, LONG_MS);
    expect(await store.read('never-made')).toBeUndefined();
  });

  it('has no record past its time', async () => {
    const store = await make();
    await store.create('short', { data: { a: 1 }, user: undefined }, TTL_MS);
    expect(await store.read('short')).toBeDefined();
    await sleep(TTL_MS + 100);
    expect(await store.read('short')).toBeUndefined();
  });

  it("removes one record by its id, and every record of a user by theirs, no one else's", async () => {
    const store = await make();
    for (const [id, user] of [
      ['a1', 'ada'],
      ['a2', 'ada'],
      ['b1', 'bob'],
      ['n1', undefined],
    ] as const)
      await store.create(id, { data: { id }, user }, LONG_MS);
    await store.remove('n1');
    expect(await store.read('n1')).toBeUndefined();
    await store.removeUser('ada');
    expect(await store.read('a1')).toBeUndefined();
    expect(await store.read('a2')).toBeUndefined();
    expect(await store.read('b1')).toEqual({ data: { id: 'b1' }, user: 'bob' });
  });
});

describe('sessions in redis, bounded and failing closed', () => {
  it(`keeps at most ${MAX_SESSIONS_PER_USER} sessions of one user, signing out the oldest`, async () => {
    const store = await STORES.redis!();
    for (let n = 0; n <= MAX_SESSIONS_PER_USER; n += 1) await store.create(`s${n}`, { data: { n }, user: 'flood' }, LONG_MS);
    expect(await store.read('s0')).toBeUndefined();
    expect(await store.read('s1')).toBeDefined();
    expect(await store.read(`s${MAX_SESSIONS_PER_USER}`)).toBeDefined();
  });

  it('a sign-in, a change or a sign-out it cannot keep is a 503, never a silent success; a read is no session', async () => {
    const redis = await startRedis();
    const logger = createLogger(loadConfig({ NODE_ENV: 'production' }), new ServerLog());
    const connection = createRedisConnection({ url: redis.url, timeoutMs: 200, logger });
    while (!connection.client.isReady) await sleep(10);
    const store = createRedisSessionStore(connection);
    await store.create('kept', { data: { a: 1 }, user: 'ada' }, LONG_MS);
    redis.pause(); // its connections stay open and nothing answers
    try {
      for (const write of [
        () => store.create('new', { data: { a: 1 }, user: 'ada' }, LONG_MS),
        () => store.update('kept', { data: { a: 2 }, user: 'ada' }, LONG_MS),
        () => store.remove('kept'),
        () => store.removeUser('ada'),
      ])
        await expect(write()).rejects.toMatchObject({ name: 'SessionStoreUnavailableError', status: 503 });
      expect(await store.read('kept')).toBeUndefined();
    } finally {
      redis.resume();
      await connection.close();
      await redis.kill();
    }
  });
});
