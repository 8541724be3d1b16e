import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { cachedFixture } from '../support/fixture-state.ts';
import { createTestApp } from '../support/test-app.ts';
import { fetchOnce } from '../../tools/harness/http.ts';
import { NOT_STORED_MESSAGE } from '../../server/pages/page-cache.ts';
import { MAX_VARIANTS_PER_PATH } from '../../server/pages/variant-cap.ts';
import { SERVER_DIGEST } from '../../shared/digest-proof.ts';

// Stored pages over HTTP (docs/caching.md): a route that asks to be reused is answered from the
// store while fresh, stale while one regeneration runs, and never when it was one visitor's.
// The page is the fixture app's /cached (tests/apps/host/app/routes/cached.tsx); the demo's own
// stored pages are the demo's test (tests/demo/stored-pages.test.ts).

const FORM = 'application/x-www-form-urlencoded';
const ORIGIN = 'http://shop.example';
/**
 * Requests at once for a stale page. Its regeneration is held until all are answered (the
 * fixture's hold), so each would start a render of its own without the single flight: 1,000
 * unheld ones took 2 s and passed with the single flight removed, the render done before the
 * next request came.
 */
const STALE_HERD = 100;
const nonceOf = (res: request.Response) => /'nonce-([^']+)'/.exec(res.headers['content-security-policy'] as string)![1]!;
/** The page's text without the comments React puts between adjacent text nodes. */
const textOf = (res: request.Response | string) => (typeof res === 'string' ? res : res.text).replaceAll('<!-- -->', '');
const cookieOf = (res: request.Response) =>
  ((res.headers['set-cookie'] as unknown as string[]) ?? []).map((c) => c.split(';')[0]).join('; ');

function host() {
  const clock = { now: 1_000_000 };
  // A fixed origin: each supertest request comes to a server on a new port, and the origin is part of an entry's key.
  const app = createTestApp({ PUBLIC_ORIGIN: ORIGIN }, { now: () => clock.now });
  return { ...app, clock };
}

describe('a page whose route asks to be reused', () => {
  it('is rendered once, then answered from the store with x-cache HIT and Age, without rendering', async () => {
    const { app, clock, logs } = host();
    const before = cachedFixture.renders;
    const first = await request(app).get('/cached').expect(200);
    expect(first.headers['x-cache']).toBe('MISS');
    clock.now += 3_000;
    const second = await request(app).get('/cached').expect(200);
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.headers.age).toBe('3');
    expect(cachedFixture.renders).toBe(before + 1);
    expect(textOf(second)).toContain(`render ${before + 1} for anyone`);
    // Its access line names the route the render had, though no route was matched for it.
    expect(logs.access(String(second.headers['x-request-id']))?.route).toBe('page:routes/cached');
  });

  it('fills each answer’s own nonce, request id and host name into the stored page; nothing of another answer stays', async () => {
    const { app } = host();
    const first = await request(app).get('/cached').expect(200);
    const second = await request(app).get('/cached').expect(200);
    expect(second.headers['x-cache']).toBe('HIT');
    for (const res of [first, second]) {
      expect(res.text).toContain(`nonce="${nonceOf(res)}"`);
      expect(res.text).toContain(res.headers['x-request-id'] as string);
      expect(res.text).not.toMatch(/rsh[0-9a-f]{32}[nihtb]/);
    }
    expect(second.text).not.toContain(nonceOf(first));
    expect(second.text).not.toContain(first.headers['x-request-id'] as string);
  });

  it('keeps a validator its loader gave it: a client holding that version gets a 304, another version the page', async () => {
    const { app } = host();
    const first = await request(app).get('/cached?etag').expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"render-\d+"$/);
    const same = await request(app).get('/cached?etag').set('If-None-Match', etag).expect(304);
    expect(same.headers['x-cache']).toBe('HIT');
    expect(same.headers.etag).toBe(etag);
    expect(same.text).toBe('');
    const other = await request(app).get('/cached?etag').set('If-None-Match', '"render-0"').expect(200);
    expect(other.headers['x-cache']).toBe('HIT');
    expect(textOf(other)).toContain('for anyone');
  });

  it('stores its navigation data beside it, keyed apart from the document', async () => {
    const { app } = host();
    const before = cachedFixture.renders;
    const data = await request(app).get('/cached.data').expect(200);
    expect(data.headers['x-cache']).toBe('MISS');
    const again = await request(app).get('/cached.data').expect(200);
    expect(again.headers['x-cache']).toBe('HIT');
    expect(again.text).toBe(data.text);
    // React Router's single fetch, not the document.
    expect(again.headers['content-type']).toBe('text/x-script');
    expect(cachedFixture.renders).toBe(before + 1);
  });

  it(`when stale, ${STALE_HERD} concurrent requests are answered the stale page while exactly one render runs`, async () => {
    const { clock, listen, close } = host();
    const url = await listen();
    let release = () => {};
    try {
      await fetch(`${url}/cached`).then((r) => r.text());
      clock.now += 11_000;
      const before = cachedFixture.renders;
      // The regeneration is held in flight until every request has its answer: a request that
      // started a render of its own would be counted, however fast renders are.
      cachedFixture.hold = new Promise((resolve) => (release = resolve));
      const answers = await Promise.all(
        Array.from({ length: STALE_HERD }, () =>
          fetch(`${url}/cached`).then(async (r) => ({ cache: r.headers.get('x-cache'), text: await r.text() })),
        ),
      );
      expect(answers.map((a) => a.cache)).toEqual(Array<string>(STALE_HERD).fill('STALE'));
      await expect.poll(() => cachedFixture.renders).toBe(before + 1);
      release();
      await expect.poll(async () => (await fetch(`${url}/cached`)).headers.get('x-cache')).toBe('HIT');
      const after = await fetch(`${url}/cached`);
      expect(after.headers.get('x-cache')).toBe('HIT');
      expect(textOf(await after.text())).toContain(`render ${before + 1} for anyone`);
      expect(cachedFixture.renders).toBe(before + 1);
    } finally {
      release();
      cachedFixture.hold = undefined;
      await close();
    }
  });

  it('a regeneration that fails keeps the stale page, logs one failure marked as a revalidation, and is retried after a back-off', async () => {
    const { app, clock, logs } = host();
    const stored = await request(app).get('/cached').expect(200);
    clock.now += 11_000;
    cachedFixture.fail = true;
    try {
      const before = cachedFixture.renders;
      const stale = await request(app).get('/cached').expect(200);
      expect(stale.headers['x-cache']).toBe('STALE');
      await expect.poll(() => logs.failures().length).toBe(1);
      const [failure] = logs.failures();
      expect(failure).toMatchObject({ revalidation: true, status: 500, reqId: stale.headers['x-request-id'], headersSent: false });
      // The stale answer was a 200 with nothing wrong: its access line carries no digest of the regeneration's.
      expect(logs.access(stale.headers['x-request-id'] as string)).not.toHaveProperty('digest');
      expect(failure!.digest).toMatch(SERVER_DIGEST);
      // Within the back-off: the stale page again, no render.
      const again = await request(app).get('/cached').expect(200);
      expect(again.headers['x-cache']).toBe('STALE');
      expect(cachedFixture.renders).toBe(before + 1);
      expect(textOf(again)).toContain(/render \d+ for anyone/.exec(textOf(stored))![0]);
      cachedFixture.fail = false;
      clock.now += 6_000;
      await request(app).get('/cached').expect(200);
      await expect.poll(() => cachedFixture.renders).toBe(before + 2);
      expect((await request(app).get('/cached')).headers['x-cache']).toBe('HIT');
      expect(logs.failures()).toHaveLength(1);
    } finally {
      cachedFixture.fail = false;
    }
  });

  it('a page gone since it was stored: its regeneration answers 404, and the stale page is dropped, not answered again', async () => {
    const { app, clock } = host();
    await request(app).get('/cached?gone').expect(200);
    clock.now += 11_000;
    cachedFixture.gone = true;
    try {
      const stale = await request(app).get('/cached?gone').expect(200);
      expect(stale.headers['x-cache']).toBe('STALE');
      await expect.poll(async () => (await request(app).get('/cached?gone')).status).toBe(404);
    } finally {
      cachedFixture.gone = false;
    }
  });

  it('entries are keyed by the origin the page was rendered for: another Host is another entry', async () => {
    // No PUBLIC_ORIGIN: a loader's request.url carries the request's own Host, so it may show in the page.
    const { listen, close } = createTestApp();
    const url = await listen();
    try {
      const as = async (hostname: string) => (await fetchOnce(`${url}/cached?origin`, { headers: { host: hostname } })).headers['x-cache'];
      expect(await as('a.example')).toBe('MISS');
      expect(await as('a.example')).toBe('HIT');
      expect(await as('b.example')).toBe('MISS');
    } finally {
      await close();
    }
  });
});

describe('what is never stored', () => {
  it('two users with different sessions never see each other’s page; a page that read the session is not stored, said once', async () => {
    const { app, logs } = host();
    const ada = cookieOf(await request(app).post('/cached').type(FORM).send('name=Ada').expect(200));
    const bob = cookieOf(await request(app).post('/cached').type(FORM).send('name=Bob').expect(200));
    const forAda = await request(app).get('/cached?session').set('cookie', ada).expect(200);
    const forBob = await request(app).get('/cached?session').set('cookie', bob).expect(200);
    expect(textOf(forAda)).toContain('for Ada');
    expect(textOf(forBob)).toContain('for Bob');
    expect(forBob.headers['x-cache']).toBe('MISS');
    expect(forBob.headers['cache-control']).toBe('no-store');
    const again = await request(app).get('/cached?session').set('cookie', bob).expect(200);
    expect(again.headers['x-cache']).toBe('MISS');
    expect(again.text).not.toContain('Ada');
    const told = logs.lines.filter((line) => line.msg === NOT_STORED_MESSAGE);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ route: 'routes/cached', reason: expect.stringMatching(/session/) as string });
  });

  it('a client inventing query strings cannot fill the store: past the cap one path’s new variants are rendered, not stored, said once', async () => {
    const { app, logs } = host();
    const cacheOf = async (query: number) => (await request(app).get(`/cached?v=${query}`).expect(200)).headers['x-cache'] as string;
    for (let query = 0; query < MAX_VARIANTS_PER_PATH; query++) await cacheOf(query);
    expect(await cacheOf(0)).toBe('HIT');
    expect(await cacheOf(MAX_VARIANTS_PER_PATH - 1)).toBe('HIT');
    const past = MAX_VARIANTS_PER_PATH + 1;
    expect(await cacheOf(past)).toBe('MISS');
    expect(await cacheOf(past)).toBe('MISS');
    expect(await cacheOf(past + 1)).toBe('MISS');
    const told = logs.lines.filter((line) => line.msg === NOT_STORED_MESSAGE);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ route: 'routes/cached', reason: expect.stringMatching(/variants/) as string });
  });

  it('a request that carries a session is served the stored page that never read it', async () => {
    const { app } = host();
    const ada = cookieOf(await request(app).post('/cached').type(FORM).send('name=Ada').expect(200));
    await request(app).get('/cached').expect(200);
    const res = await request(app).get('/cached').set('cookie', ada).expect(200);
    expect(res.headers['x-cache']).toBe('HIT');
    expect(textOf(res)).toContain('for anyone');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('a write revalidates by tag: the next read is a MISS that renders anew', async () => {
    const { app } = host();
    await request(app).get('/cached').expect(200);
    expect((await request(app).get('/cached')).headers['x-cache']).toBe('HIT');
    await request(app).post('/cached').type(FORM).send('name=Ada').expect(200);
    expect((await request(app).get('/cached')).headers['x-cache']).toBe('MISS');
  });

  it('a page whose route asks nothing is rendered per request, and one that read the session is never stored', async () => {
    const { app } = host();
    for (const path of ['/', '/', '/writes', '/writes']) {
      const res = await request(app).get(path).expect(200);
      expect(res.headers['x-cache'], path).toBeUndefined();
    }
  });
});
