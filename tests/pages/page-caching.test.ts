import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';
import { createTestApp, DIAG } from '../support/test-app.ts';

// What a browser may keep of a page: a page without anything of one user in it is stored by the
// browser only and asked for again before reuse (so the back/forward cache may restore it);
// anything of one user, a failure or a write's answer is kept nowhere (docs/performance.md).

const app = () => createTestApp();
const FORM = 'application/x-www-form-urlencoded';
const SHAREABLE = 'private, no-cache';

describe('what a browser may keep of a page', () => {
  it('a public page and its navigation data are private, no-cache (never no-store, which bars the back/forward cache)', async () => {
    const { app: host } = app();
    for (const path of ['/', '/fixture/ada', '/writes?do=plain', '/fixture/ada.data']) {
      const res = await request(host).get(path).set('user-agent', BROWSER_UA).expect(200);
      expect(res.headers['cache-control'], path).toBe(SHAREABLE);
    }
    const head = await request(host).head('/fixture/ada').expect(200);
    expect(head.headers['cache-control']).toBe(SHAREABLE);
  });

  it('a page whose session holds data, or that sets a cookie, is no-store, as page and as data', async () => {
    const { app: host } = app();
    const first = await request(host).get('/writes').expect(200);
    expect(first.headers['set-cookie']).toBeDefined();
    expect(first.headers['cache-control']).toBe('no-store');
    const session = (first.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
    const again = await request(host).get('/writes?do=plain').set('Cookie', session).expect(200);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.headers['cache-control']).toBe('no-store');
    const data = await request(host).get('/writes.data?do=plain').set('Cookie', session).expect(200);
    expect(data.headers['cache-control']).toBe('no-store');
  });

  it('an empty or forged session cookie makes nothing per-user', async () => {
    const { app: host } = app();
    for (const cookie of ['__session=', '__session=forged.value', 'theme=dark']) {
      const res = await request(host).get('/writes?do=plain').set('Cookie', cookie).expect(200);
      expect(res.headers['cache-control'], cookie).toBe(SHAREABLE);
    }
  });

  it('the answer to a write is no-store, as page and as data, whatever its status', async () => {
    const { app: host } = app();
    const page = await request(host).post('/writes?do=plain').type(FORM).send('x=1').expect(200);
    expect(page.headers['cache-control']).toBe('no-store');
    const data = await request(host).post('/writes.data?do=plain').type(FORM).send('x=1').expect(200);
    expect(data.headers['cache-control']).toBe('no-store');
    const invalid = await request(host).post('/board').type(FORM).send('').expect(422);
    expect(invalid.headers['cache-control']).toBe('no-store');
  });

  it('failures and not-found pages are no-store, from a route boundary as from the error page', async () => {
    const { app: host } = app();
    const boundary = await request(host).get('/writes?do=throw').expect(500);
    expect(boundary.headers['cache-control']).toBe('no-store');
    const diag = await request(host).get('/_diag/loader-error').set(DIAG).expect(500);
    expect(diag.headers['cache-control']).toBe('no-store');
    const missing = await request(host).get('/no-such-page').expect(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    const data = await request(host).get('/writes.data?do=throw').expect(500);
    expect(data.headers['cache-control']).toBe('no-store');
  });

  it('a route that sets its own Cache-Control keeps it', async () => {
    const { app: host } = app();
    const page = await request(host).get('/writes?do=own-cache-control').expect(200);
    expect(page.headers['cache-control']).toBe('public, max-age=60');
    const data = await request(host).get('/writes.data?do=own-cache-control').expect(200);
    expect(data.headers['cache-control']).toBe('public, max-age=60');
  });

  it.each(['/writes', '/api/writes', '/writes.data?x=1'])(
    '%s: an answer that reads the session, or sets its cookie, is no-store whatever the route asked',
    async (path) => {
      const { app: host } = app();
      const at = (todo: string) => (path.includes('?') ? `${path}&do=${todo}` : `${path}?do=${todo}`);
      const counted = await request(host).get(at('count-and-cache')).expect(200);
      expect(counted.headers['set-cookie']).toBeDefined();
      expect(counted.headers['cache-control']).toBe('no-store');
      const read = await request(host).get(at('read-session')).expect(200);
      expect(read.headers['set-cookie']).toBeUndefined();
      expect(read.headers['cache-control']).toBe('no-store');
      // The same route's answer that touches no session keeps what it asked for.
      const own = await request(host).get(at('own-cache-control')).expect(200);
      expect(own.headers['cache-control']).toBe('public, max-age=60');
    },
  );

  it('a route’s own Cache-Control never makes one user’s page storable', async () => {
    const { app: host } = app();
    const first = await request(host).get('/writes').expect(200);
    const session = (first.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
    const page = await request(host).get('/writes?do=own-cache-control').set('Cookie', session).expect(200);
    expect(page.headers['cache-control']).toBe('no-store');
  });
});
