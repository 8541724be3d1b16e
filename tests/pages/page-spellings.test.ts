import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/test-app.ts';
import { createMemoryStore, type CacheStore } from '../../server/pages/cache-store.ts';

// One page, one spelling (docs/caching.md): every other spelling of a page the router takes for
// it is redirected to its own before the store is asked, so the store holds, caps and drops the
// page under one key, and a revalidation of it leaves no other spelling serving the old page.

const ORIGIN = 'http://shop.example';

/** The app over a memory store that remembers every key it was asked to keep. */
function host() {
  const memory = createMemoryStore(64 * 1024 * 1024);
  const kept = new Set<string>();
  const store: CacheStore = { ...memory, set: (key, entry) => (kept.add(key), memory.set(key, entry)) };
  const app = createTestApp({ PUBLIC_ORIGIN: ORIGIN }, { cacheStore: store });
  return { ...app, kept };
}

describe('a page read by another spelling than its own', () => {
  it.each([
    ['/Cached', '/cached'],
    ['/cached/', '/cached'],
    ['/cached//', '/cached'],
    ['/CACHED/', '/cached'],
    ['/%63ached', '/cached'],
    ['/Cached?a=1&b', '/cached?a=1&b'],
    ['/Cached/Items/ABC/', '/cached/items/ABC'],
    ['/cached/items/%41BC', '/cached/items/ABC'],
  ])('%s is redirected (308) to %s, and nothing is stored under it', async (sent, spelled) => {
    const { app, kept } = host();
    const res = await request(app).get(sent).expect(308);
    expect(res.headers.location).toBe(spelled);
    expect(res.headers['x-cache']).toBeUndefined();
    expect(kept.size).toBe(0);
    await request(app).head(sent).expect(308);
  });

  it('keeps a dynamic value as sent: two cases are two pages, each its own spelling', async () => {
    const { app } = host();
    for (const path of ['/cached/items/ABC', '/cached/items/abc']) {
      const res = await request(app).get(path).expect(200);
      expect(res.headers['x-cache']).toBe('MISS');
    }
  });

  it("redirects a navigation's data to the page's spelling, its query kept", async () => {
    const { app } = host();
    const res = await request(app).get('/Cached/_.data?x=1').expect(308);
    expect(res.headers.location).toBe('/cached.data?x=1');
  });

  it('is stored once however many spellings and however long: 200 spellings of 4 KB make no entry', async () => {
    const { app, kept } = host();
    const long = `/cached${'/'.repeat(4000)}`;
    for (let i = 0; i < 100; i++) await request(app).get(`${long}?v=${i}`).expect(308);
    for (let i = 0; i < 100; i++)
      await request(app)
        .get(i % 2 ? '/CACHED' : '/Cached/')
        .expect(308);
    expect(kept.size).toBe(0);
    await request(app).get('/cached').expect(200);
    expect(kept.size).toBe(1);
  });

  it('is gone in every spelling once its one spelling is revalidated', async () => {
    const { app } = host();
    const first = await request(app).get('/cached').expect(200);
    expect(first.headers['x-cache']).toBe('MISS');
    await request(app).get('/cached').expect(200).expect('x-cache', 'HIT');
    await request(app).post('/cached').type('form').send({ name: 'x' }).expect(200);
    const after = await request(app).get('/Cached/').redirects(1).expect(200);
    expect(after.headers['x-cache']).toBe('MISS');
  });

  it('is not redirected when written to: a form posts where it was', async () => {
    const { app } = host();
    const res = await request(app).post('/Cached/').type('form').send({ name: 'x' });
    expect(res.status).toBe(200);
  });
});
