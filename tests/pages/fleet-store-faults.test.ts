import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { fleetReplica, type FleetReplica } from '../support/fleet-replica.ts';
import { startRedis, type RunningRedis } from '../support/redis-server.ts';
import { MALFORMED_ENTRY_MESSAGE, createRedisStore } from '../../server/pages/redis-store.ts';
import { createRedisConnection } from '../../server/fleet/redis-connection.ts';
import { createRevalidator, GAVE_UP_MESSAGE, REVALIDATE_RETRIES } from '../../server/pages/revalidation-retries.ts';
import { createLogger } from '../../server/observe/logger.ts';
import { loadConfig } from '../../server/config/config.ts';
import { ServerLog } from '../../tools/harness/server-log.ts';

// The shared store failing as production sees it (docs/caching.md, "Dropping entries", and
// docs/security.md, "The page store"): a Redis that pauses while a page is taken down, and
// entries in Redis that this host did not write as they are now.

const TOKEN = 'revalidate-token-0123456789';
/** Short: a paused Redis costs each call this long. */
const TIMEOUT_MS = 100;

let redis: RunningRedis;
const replicas: FleetReplica[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  redis.resume();
  await Promise.all(replicas.map((replica) => replica.close()));
  await redis.kill();
});

async function replica() {
  const made = fleetReplica(redis.url, TIMEOUT_MS, { PUBLIC_ORIGIN: 'http://shop.example', REVALIDATE_TOKEN: TOKEN });
  replicas.push(made);
  await made.connected();
  return made;
}

const cacheOf = async (a: FleetReplica, path: string) => (await request(a.app).get(path).expect(200)).headers['x-cache'] as string;

describe('a revalidation the shared store did not confirm', () => {
  it('is a 503 a webhook retries, and the host drops the page itself once Redis answers again', async () => {
    const a = await replica();
    await cacheOf(a, '/cached?pause=1');
    await expect.poll(() => cacheOf(a, '/cached?pause=1')).toBe('HIT');
    redis.pause();
    let res: request.Response;
    try {
      res = await request(a.app).post('/_revalidate').set('Authorization', `Bearer ${TOKEN}`).send({ path: '/cached' });
    } finally {
      redis.resume();
    }
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toMatchObject({ error: { status: 503 }, revalidated: [{ path: '/cached', confirmed: false }] });
    await expect.poll(() => cacheOf(a, '/cached?pause=1'), { timeout: 10_000 }).toBe('MISS');
  });

  it('is given up after its retries with one line, when Redis never answers', async () => {
    const gone = await startRedis();
    await gone.kill();
    const log = new ServerLog();
    const logger = createLogger(loadConfig({ NODE_ENV: 'production' }), log);
    const connection = createRedisConnection({ url: gone.url, timeoutMs: TIMEOUT_MS, logger });
    try {
      const store = createRedisStore(connection, logger);
      const revalidate = createRevalidator((target) => store.invalidate(target), logger, 1);
      expect(await revalidate({ tag: 'never' })).toEqual({ dropped: 0, confirmed: false });
      // The same target again while it is retried: one series of retries, one line.
      await revalidate({ tag: 'never' });
      await expect.poll(() => log.lines.filter((line) => line.msg === GAVE_UP_MESSAGE).length).toBe(1);
      expect(log.lines.find((line) => line.msg === GAVE_UP_MESSAGE)).toMatchObject({
        target: { tag: 'never' },
        attempts: REVALIDATE_RETRIES + 1,
      });
    } finally {
      await connection.close();
    }
  });
});

describe('an entry in Redis this host did not write', () => {
  it('is a miss and one warn line, on every shape that does not check out, never a 500', async () => {
    const a = await replica();
    const other = await createClient({ url: redis.url }).connect();
    const good = (marker = 'a'.repeat(32)) => ({
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<p>rsh${marker}n</p>`,
      storedAt: Date.now(),
      revalidateMs: 60_000,
      path: '/cached',
      tags: [],
      vary: {},
      marker,
      route: 'page:routes/cached',
    });
    const shapes: Record<string, string> = {
      empty: '{}',
      null: 'null',
      list: '[]',
      text: '"page"',
      cut: JSON.stringify(good()).slice(0, 40),
      newline: JSON.stringify({ ...good(), headers: { 'x-a': 'one\r\nset-cookie: stolen=1' } }),
      wide: JSON.stringify({ ...good(), headers: { 'x-a': 'ĀĀ' } }),
      name: JSON.stringify({ ...good(), headers: { 'bad name': 'x' } }),
      cookie: JSON.stringify({ ...good(), headers: { 'Set-Cookie': 'a=1' } }),
      status99: JSON.stringify({ ...good(), status: 99 }),
      status500: JSON.stringify({ ...good(), status: 500 }),
      body: JSON.stringify({ ...good(), body: 42 }),
      times: JSON.stringify({ ...good(), storedAt: 'now' }),
      vary: JSON.stringify({ ...good(), vary: { 'Accept-Language': 7 } }),
      marker: JSON.stringify({ ...good(), marker: '<script>' }),
      route: JSON.stringify({ ...good(), route: 7 }),
    };
    try {
      for (const [shape, raw] of Object.entries(shapes)) {
        const path = `/cached?shape=${shape}`;
        await cacheOf(a, path);
        await expect.poll(() => cacheOf(a, path)).toBe('HIT');
        const [key] = await other.keys(`rsh:page:*|document|browser|*shape=${shape}`);
        await other.set(key!, raw);
        // A miss: rendered anew, and the entry it stores in place of the bad one answers after.
        expect(await cacheOf(a, path), shape).toBe('MISS');
        await expect.poll(() => cacheOf(a, path)).toBe('HIT');
      }
    } finally {
      other.destroy();
    }
    const told = a.storeLog.lines.filter((line) => line.msg === MALFORMED_ENTRY_MESSAGE);
    expect(told).toHaveLength(Object.keys(shapes).length);
    expect(a.logs.failureCount()).toBe(0);
  });
});
