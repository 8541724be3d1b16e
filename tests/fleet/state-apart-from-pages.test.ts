import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchOnce } from '../../tools/harness/http.ts';
import { fleetReplica, type FleetReplica } from '../support/fleet-replica.ts';
import { startServer } from '../support/server.ts';
import { APP_BUILDS } from '../support/test-app.ts';
import { startRedis, type RunningRedis } from '../support/redis-server.ts';
import { EVICTING_STATE_MESSAGE } from '../../server/fleet/eviction-policy.ts';
import { POSTS_PER_MINUTE } from '../apps/host/app/board-limits.ts';

// The fleet's Redis as docs/deploy.md documents them: the state (REDIS_URL: rate-limit windows,
// spent proofs) on a server that never evicts, stored pages (CACHE_REDIS_URL) on another that
// evicts the least recently used. Nothing a client does to the pages can drop a limit's window:
// once they fill their server to its maxmemory, a client refused stays refused on every replica.

const TIMEOUT_MS = 200;
/** The board's limit (tests/apps/host/app/routes/board.tsx). */
const WRITES_PER_MINUTE = POSTS_PER_MINUTE;
/** Small enough that a few thousand stored pages fill it; a Redis idles at about 1 MB. */
const PAGES_MAXMEMORY = '3mb';
/** More pages than the pages' Redis holds at that size: enough to be sure it evicted. */
const MOST_PAGES = 4_000;

let state: RunningRedis;
let pages: RunningRedis;
const replicas: FleetReplica[] = [];
beforeAll(async () => {
  [state, pages] = await Promise.all([
    startRedis(undefined, ['--maxmemory-policy', 'noeviction']),
    startRedis(undefined, ['--maxmemory', PAGES_MAXMEMORY, '--maxmemory-policy', 'allkeys-lru']),
  ]);
});
afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.close()));
  await Promise.all([state.kill(), pages.kill()]);
});

async function replica() {
  const made = fleetReplica(state.url, TIMEOUT_MS, { PUBLIC_ORIGIN: 'http://shop.example' }, pages.url);
  replicas.push(made);
  await made.listen();
  await made.connected();
  return made;
}

const CLIENT = '127.0.9.200';
const sign = (at: FleetReplica, i: number) =>
  fetchOnce(`${at.url}/board`, {
    method: 'POST',
    localAddress: CLIENT,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `name=Fleet&message=write+${i}`,
  });

async function evictedKeys(url: string): Promise<number> {
  const admin = await createClient({ url }).connect();
  try {
    return Number(/evicted_keys:(\d+)/.exec(await admin.info('stats'))?.[1] ?? 0);
  } finally {
    admin.destroy();
  }
}

describe('the state and the stored pages on Redis servers of their own', () => {
  it("tells once per connection, at warn, when the state's Redis would evict", async () => {
    const evicting = await startRedis(undefined, ['--maxmemory-policy', 'allkeys-lru']);
    const told = async (url: string) => {
      const made = fleetReplica(url, TIMEOUT_MS, {}, pages.url);
      try {
        await made.connected();
        await new Promise((resolve) => setTimeout(resolve, 200));
        return made.storeLog.lines.filter((line) => line.msg === EVICTING_STATE_MESSAGE);
      } finally {
        await made.close();
      }
    };
    try {
      const lines = await told(evicting.url);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 40, maxmemoryPolicy: 'allkeys-lru' });
      expect(await told(state.url)).toEqual([]);
    } finally {
      await evicting.kill();
    }
  });

  it('pages filling theirs to maxmemory evict pages only: a client refused stays refused on every replica', async () => {
    const [a, b] = [await replica(), await replica()];
    for (let i = 0; i < WRITES_PER_MINUTE; i++) expect((await sign(i % 2 ? a : b, i)).status).toBe(303);
    expect((await sign(a, WRITES_PER_MINUTE)).status).toBe(429);

    let stored = 0;
    while ((await evictedKeys(pages.url)) === 0) {
      expect(stored, 'pages never filled their Redis').toBeLessThan(MOST_PAGES);
      // Many pages at once, as a crawler asks them: each a page of its own, so no variant cap applies.
      await Promise.all(Array.from({ length: 50 }, (_, i) => fetchOnce(`${(i % 2 ? a : b).url}/cached/items/crawl-${stored + i}`)));
      stored += 50;
    }

    for (const at of [a, b]) {
      const refused = await sign(at, WRITES_PER_MINUTE + 1);
      expect(refused.status).toBe(429);
    }
    expect(await evictedKeys(state.url)).toBe(0);
    expect(a.logs.failureCount() + b.logs.failureCount()).toBe(0);
  });

  it('the built process, started with both, says its sessions are in the state’s Redis and keeps its pages in the pages’', async () => {
    // Redis's client is loaded only when a Redis is configured (server/index.ts): this is that path, as built.
    const server = await startServer({
      APP_BUILD: APP_BUILDS.host,
      REDIS_URL: state.url,
      CACHE_REDIS_URL: pages.url,
      SESSION_SECRET: 'r'.repeat(32),
    });
    try {
      expect(server.logs.lines.find((line) => line.sessions !== undefined)).toMatchObject({ sessions: 'redis' });
      const cacheOf = async () => (await fetchOnce(`${server.url}/cached/items/process`)).headers['x-cache'];
      expect(await cacheOf()).toBe('MISS');
      // Stored once the pages' connection is up: the process listens before its Redis connections are.
      await expect.poll(cacheOf).toBe('HIT');
      // Gone from the pages' Redis, it is gone: the process kept no copy of its own.
      const admin = await createClient({ url: pages.url }).connect();
      await admin.flushAll().finally(() => admin.destroy());
      expect(await cacheOf()).toBe('MISS');
      expect(server.logs.failureCount()).toBe(0);
    } finally {
      await server.stop();
    }
  });
});
