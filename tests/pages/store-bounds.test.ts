import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { cachedFixture } from '../support/fixture-state.ts';
import { createTestApp } from '../support/test-app.ts';
import { createMemoryStore, type CacheEntry, type CacheStore } from '../../server/pages/cache-store.ts';
import { MAX_VARIANTS_PER_PATH, VARIANT_WINDOW_MS } from '../../server/pages/variant-cap.ts';

// What a client can do to the store's bounds and markers (docs/caching.md, "Bounds", and
// docs/security.md, "The page store"): invented variants never crowd out a page's own spelling
// or its refresh, an invalidation forgets only what it names, and a page's content never becomes
// a place where per-answer values are written.

const ORIGIN = 'http://shop.example';
/** A revalidate of 10 s (tests/apps/host/app/routes/cached.tsx): past it an entry is stale. */
const STALE_AFTER_MS = 11_000;

/** The app over a memory store whose entries the test can read, on a clock the test moves. */
function host() {
  const clock = { now: 1_000_000 };
  const memory = createMemoryStore(64 * 1024 * 1024, () => clock.now);
  const entries = new Map<string, CacheEntry>();
  const store: CacheStore = { ...memory, set: (key, entry) => (entries.set(key, entry), memory.set(key, entry)) };
  const app = createTestApp({ PUBLIC_ORIGIN: ORIGIN }, { cacheStore: store, now: () => clock.now });
  const cacheOf = async (path: string) => (await request(app.app).get(path).expect(200)).headers['x-cache'] as string;
  return { ...app, clock, memory, entries, cacheOf };
}

/** Fills the path's cap of query-string variants: each stored, as its HIT shows. */
async function fillCap(cacheOf: (path: string) => Promise<string>, from = 0) {
  for (let v = from; v < from + MAX_VARIANTS_PER_PATH; v++) await cacheOf(`/cached?v=${v}`);
  expect(await cacheOf(`/cached?v=${from + MAX_VARIANTS_PER_PATH - 1}`)).toBe('HIT');
}

describe("a path's variant cap", () => {
  it("never crowds out the page's own spelling: invented query strings filled first, the page is still stored", async () => {
    const { cacheOf } = host();
    await fillCap(cacheOf);
    expect(await cacheOf('/cached?v=999')).toBe('MISS');
    expect(await cacheOf('/cached?v=999')).toBe('MISS');
    expect(await cacheOf('/cached')).toBe('MISS');
    expect(await cacheOf('/cached')).toBe('HIT');
  });

  it('never refuses a stale entry its refresh: with the cap full in a later window, the page is rendered anew and replaced', async () => {
    const { cacheOf, clock } = host();
    await cacheOf('/cached?v=old');
    expect(await cacheOf('/cached?v=old')).toBe('HIT');
    clock.now += VARIANT_WINDOW_MS;
    await fillCap(cacheOf);
    const before = cachedFixture.renders;
    expect(await cacheOf('/cached?v=old')).toBe('STALE');
    await expect.poll(() => cachedFixture.renders).toBe(before + 1);
    await expect.poll(() => cacheOf('/cached?v=old')).toBe('HIT');
  });
});

describe('an invalidation', () => {
  it("forgets only what it names: another tag's invalidation leaves this path at its cap", async () => {
    const { cacheOf, memory } = host();
    await fillCap(cacheOf);
    expect(await cacheOf('/cached?v=past')).toBe('MISS');
    await memory.invalidate({ tag: 'elsewhere' });
    await memory.invalidate({ path: '/elsewhere' });
    expect(await cacheOf('/cached?v=past')).toBe('MISS');
    expect(await cacheOf('/cached?v=past')).toBe('MISS');
    expect(await cacheOf('/cached?v=0')).toBe('HIT');
  });

  it("leaves another page's back-off: a failing regeneration is not tried again because something else was revalidated", async () => {
    const { cacheOf, clock, memory } = host();
    await cacheOf('/cached?v=backoff');
    clock.now += STALE_AFTER_MS;
    cachedFixture.fail = true;
    try {
      const before = cachedFixture.renders;
      expect(await cacheOf('/cached?v=backoff')).toBe('STALE');
      await expect.poll(() => cachedFixture.renders).toBe(before + 1);
      await memory.invalidate({ tag: 'elsewhere' });
      expect(await cacheOf('/cached?v=backoff')).toBe('STALE');
      expect(await cacheOf('/cached?v=backoff')).toBe('STALE');
      expect(cachedFixture.renders).toBe(before + 1);
      // Its own tag's invalidation drops it: the next read renders (and fails) anew.
      await memory.invalidate({ tag: 'cached-fixture' });
      expect(await cacheOf('/cached?v=backoff').catch(() => 'failed')).not.toBe('STALE');
    } finally {
      cachedFixture.fail = false;
    }
  });
});

describe("a stored page's markers", () => {
  it("are written only where the host put them: content that spells the release's old marker stays text", async () => {
    const { app, entries } = host();
    await request(app).get('/cached').expect(200);
    const [key] = [...entries.keys()];
    const namespace = key!.split('|')[0]!;
    // Until the markers were a render's own, they were `rsh<namespace><role>`: the id every key in Redis shows.
    for (const role of ['n', 'i', 'h']) {
      const spelled = `rsh${namespace}${role}`;
      for (const expected of ['MISS', 'HIT']) {
        const res = await request(app).get(`/cached?say=${spelled}`).expect(200);
        expect(res.headers['x-cache']).toBe(expected);
        expect(res.text).toContain(`<p data-testid="said">${spelled}</p>`);
      }
    }
    for (const [stored, entry] of entries) {
      expect(stored).not.toContain(entry.marker);
      expect(entry.body).toContain(`rsh${entry.marker}n`);
    }
  });

  it('are a render of its own each: two entries never share them', async () => {
    const { cacheOf, entries } = host();
    await cacheOf('/cached?v=a');
    await cacheOf('/cached?v=b');
    const markers = new Set([...entries.values()].map((entry) => entry.marker));
    expect(markers.size).toBe(entries.size);
    expect(entries.size).toBe(2);
  });
});

describe('what a page that is never stored costs the store', () => {
  it('is one lookup, its first, for a page or a resource route: a path matches the same route on every replica of a build', async () => {
    const memory = createMemoryStore(64 * 1024 * 1024);
    const asked: string[] = [];
    const store: CacheStore = { ...memory, get: (key) => (asked.push(key), memory.get(key)) };
    const { app } = createTestApp({ PUBLIC_ORIGIN: ORIGIN }, { cacheStore: store });
    const paths = ['/', '/', '/?page=2', '/_.data', '/api/readonly', '/api/readonly', '/cached', '/cached'];
    for (const path of paths) await request(app).get(path).expect(200);
    // The home page's path once, whatever its query or kind, and a resource route's; '/cached', which is stored, at each read.
    expect(asked.filter((key) => key.includes('/api/readonly'))).toHaveLength(1);
    expect(asked.filter((key) => !key.includes('/cached') && !key.includes('/api/'))).toHaveLength(1);
    expect(asked.filter((key) => key.includes('/cached'))).toHaveLength(2);
  });

  it('a path past 1,024 characters is not learned: a client sending long ones cannot fill memory with them', async () => {
    const memory = createMemoryStore(64 * 1024 * 1024);
    const asked: string[] = [];
    const store: CacheStore = { ...memory, get: (key) => (asked.push(key), memory.get(key)) };
    const { app } = createTestApp({ PUBLIC_ORIGIN: ORIGIN }, { cacheStore: store });
    const long = `/fixture/${'a'.repeat(1_100)}`;
    for (const path of [long, long, '/fixture/ada', '/fixture/ada']) await request(app).get(path).expect(200);
    // The long one at each read (its key is its hash: docs/security.md), the short one once.
    expect(asked.filter((key) => key.includes('/fixture/ada'))).toHaveLength(1);
    expect(asked).toHaveLength(3);
  });
});
