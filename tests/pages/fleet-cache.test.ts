import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { OUTAGE_MESSAGE, RECOVERED_MESSAGE } from '../../server/fleet/redis-connection.ts';
import { INVALIDATION_CHANNEL } from '../../server/fleet/redis-invalidations.ts';
import { MAX_VARIANTS_PER_PATH } from '../../server/pages/variant-cap.ts';
import { setTimeout } from 'node:timers/promises';
import { cachedFixture } from '../support/fixture-state.ts';
import { fleetReplica, type FleetReplica } from '../support/fleet-replica.ts';
import { startRedis, type RunningRedis } from '../support/redis-server.ts';

// One cache for the fleet (docs/caching.md): two replicas on one real Redis share stored pages
// and invalidations; Redis gone mid-run costs a render, one warn line and a count, never a 5xx.

const FORM = 'application/x-www-form-urlencoded';
/** Short: the outage test's requests each wait this long for a Redis that is not there at most. */
const TIMEOUT_MS = 100;
/** Ample for a message or a write on a local Redis to have been handled. */
const SETTLE_MS = 300;
/** The connection retries at most every 2 s (server/fleet/redis-connection.ts); a few tries' worth. */
const RECONNECT_WITHIN_MS = 10_000;

let redis: RunningRedis;
const replicas: FleetReplica[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.close()));
  await redis.kill();
});

/** A replica connected to Redis: before that, its calls are misses and it would render (and count) once more. */
async function replica() {
  // A fixed origin: each supertest request comes to a server on a new port, and the origin is part of an entry's key.
  const made = fleetReplica(redis.url, TIMEOUT_MS, { PUBLIC_ORIGIN: 'http://shop.example' });
  replicas.push(made);
  await made.connected();
  return made;
}

/** The page store's lines (CACHE_REDIS_URL's connection): the state's, on the same test Redis here, tell their own. */
const pagesLines = (replica: FleetReplica, msg: string) =>
  replica.storeLog.lines.filter((line) => line.msg === msg && line.store === 'CACHE_REDIS_URL');

describe('two replicas on one Redis', () => {
  it('a page one replica stored answers the other without a render', async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    const before = cachedFixture.renders;
    expect((await request(a.app).get('/cached?fleet=1').expect(200)).headers['x-cache']).toBe('MISS');
    // Stored once its answer ended: a HIT on the replica that rendered it is a HIT from Redis.
    await expect.poll(async () => (await request(a.app).get('/cached?fleet=1')).headers['x-cache']).toBe('HIT');
    expect((await request(b.app).get('/cached?fleet=1')).headers['x-cache']).toBe('HIT');
    expect(cachedFixture.renders).toBe(before + 1);
  });

  it('a revalidation on one replica makes the other’s next read a MISS that renders anew', async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    await request(a.app).get('/cached?fleet=2').expect(200);
    await expect.poll(async () => (await request(b.app).get('/cached?fleet=2')).headers['x-cache']).toBe('HIT');
    await request(a.app).post('/cached').type(FORM).send('name=Ada').expect(200);
    const before = cachedFixture.renders;
    const next = await request(b.app).get('/cached?fleet=2').expect(200);
    expect(next.headers['x-cache']).toBe('MISS');
    expect(cachedFixture.renders).toBe(before + 1);
  });

  it('a message on the invalidation channel that is not a target is no invalidation: what the replica counted stands', async () => {
    const a = await replica();
    const cacheOf = async (query: number) => (await request(a.app).get(`/cached?cap=${query}`).expect(200)).headers['x-cache'] as string;
    // The replica's count of one path's stored variants (server/pages/variant-cap.ts) is what an invalidation resets.
    for (let query = 0; query < MAX_VARIANTS_PER_PATH; query++) await cacheOf(query);
    await expect.poll(() => cacheOf(0)).toBe('HIT');
    const other = await createClient({ url: redis.url }).connect();
    try {
      for (const message of ['null', '42', '{}', '{"path":7}', 'not json']) await other.publish(INVALIDATION_CHANNEL, message);
    } finally {
      other.destroy();
    }
    await setTimeout(SETTLE_MS);
    // Still at its cap: a new variant renders and is not stored.
    expect(await cacheOf(MAX_VARIANTS_PER_PATH)).toBe('MISS');
    await setTimeout(SETTLE_MS);
    expect(await cacheOf(MAX_VARIANTS_PER_PATH)).toBe('MISS');
    expect(await cacheOf(0)).toBe('HIT');
    expect(a.logs.failureCount()).toBe(0);
  });

  it('with Redis killed mid-run, pages render as without a cache: 200s, one outage line, each failed call counted; back, one recovery line', async () => {
    const a = await replica();
    await request(a.app).get('/cached?fleet=3').expect(200);
    await expect.poll(async () => (await request(a.app).get('/cached?fleet=3')).headers['x-cache']).toBe('HIT');
    await redis.kill();
    const before = cachedFixture.renders;
    for (let i = 0; i < 3; i++) {
      const res = await request(a.app).get('/cached?fleet=3').expect(200);
      expect(res.headers['x-cache']).toBe('MISS');
    }
    expect(cachedFixture.renders).toBe(before + 3);
    expect(pagesLines(a, OUTAGE_MESSAGE)).toHaveLength(1);
    expect(a.outages.pages).toBeGreaterThanOrEqual(3);
    expect(a.logs.failureCount()).toBe(0);

    // Back on the same address: the replica reconnects by itself, says so once, and stores again.
    redis = await startRedis(Number(new URL(redis.url).port));
    await expect
      .poll(async () => (await request(a.app).get('/cached?fleet=3')).headers['x-cache'], { timeout: RECONNECT_WITHIN_MS })
      .toBe('HIT');
    expect(pagesLines(a, RECOVERED_MESSAGE)).toHaveLength(1);
    expect(pagesLines(a, OUTAGE_MESSAGE)).toHaveLength(1);
  });
});
