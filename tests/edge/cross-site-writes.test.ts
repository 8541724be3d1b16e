import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createTestApp, DIAG } from '../support/test-app.ts';

// A write from another site's page is refused before anything reads its body or runs an action:
// by its Origin, or without one by Sec-Fetch-Site. A client that sends neither is no browser.
// The writes go to the fixture app's form (/board, tests/apps/host/app/routes/board.tsx), its
// navigation data (React Router's /board.data), a resource route, no route, and the host's own endpoint.

const FORM = 'application/x-www-form-urlencoded';
const SITE = 'http://127.0.0.1'; // every request below says Host: 127.0.0.1
const FOREIGN_ORIGINS = [
  'https://evil.example',
  'http://127.0.0.1.evil.example',
  'https://127.0.0.1', // another scheme
  'http://127.0.0.1:8080', // another port
  'http://sub.127.0.0.1',
  'null', // a sandboxed frame, a file
  'http://127.0.0.1/', // not an origin's serialisation
  'HTTP://127.0.0.1',
  '',
  'http://localhost',
];
const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
const ENDPOINTS = ['/board', '/board.data', '/api/writes', '/no-such-page', '/_client-errors'];

type Verb = Lowercase<(typeof WRITES)[number]>;
const send = (app: ReturnType<typeof createTestApp>['app'], method: string, path: string) =>
  request(app)[method.toLowerCase() as Verb](path).set('Host', '127.0.0.1').type(FORM).send('name=Mallory&message=forged');

describe('cross-site writes', () => {
  it('refuses every write whose Origin is not the site, on every endpoint, before the action runs', async () => {
    const { app, logs, db } = createTestApp();
    const posts = async () =>
      (
        await db
          .selectFrom('board_posts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const before = await posts();
    for (const origin of FOREIGN_ORIGINS) {
      for (const method of WRITES) {
        for (const path of ENDPOINTS) {
          const res = await send(app, method, path).set('Origin', origin).expect(403);
          expect(res.text).toContain('Cross-site request refused');
        }
      }
    }
    expect(await posts()).toBe(before);
    expect(logs.failureCount()).toBe(0);
    expect(logs.accessLines().every((line) => line.status === 403 && String(line.reason).startsWith('Cross-site request refused'))).toBe(
      true,
    );
  });

  it('refuses a write without Origin that Sec-Fetch-Site says another site sent; same-origin and none pass', async () => {
    const { app } = createTestApp();
    for (const site of ['cross-site', 'same-site']) {
      await send(app, 'POST', '/board').set('Sec-Fetch-Site', site).expect(403);
    }
    for (const site of ['same-origin', 'none']) {
      await send(app, 'POST', '/board').set('Sec-Fetch-Site', site).expect(303);
    }
  });

  it('lets through writes from the site itself, from ALLOWED_ORIGINS, and from clients that are no browser', async () => {
    const { app } = createTestApp({ ALLOWED_ORIGINS: 'https://forms.example.org, https://admin.example.org' });
    await send(app, 'POST', '/board').set('Origin', SITE).expect(303);
    await send(app, 'POST', '/board').set('Origin', 'https://forms.example.org').expect(303);
    await send(app, 'POST', '/board').expect(303); // curl
    // Reads are never refused, whatever they claim.
    await request(app).get('/board').set('Origin', 'https://evil.example').set('Sec-Fetch-Site', 'cross-site').expect(200);
  });

  it('with PUBLIC_ORIGIN, only that origin is the site, whatever Host the client sends', async () => {
    const { app } = createTestApp({ PUBLIC_ORIGIN: 'https://shop.example.com' });
    await send(app, 'POST', '/board').set('Origin', 'https://shop.example.com').expect(303);
    await send(app, 'POST', '/board').set('Host', 'evil.example').set('Origin', 'http://evil.example').expect(403);
  });

  it('the diagnostics token exempts nothing', async () => {
    const { app, logs } = createTestApp();
    await send(app, 'POST', '/_diag/action-error').set(DIAG).set('Origin', 'https://evil.example').expect(403);
    expect(logs.failureCount()).toBe(0);
  });
});
