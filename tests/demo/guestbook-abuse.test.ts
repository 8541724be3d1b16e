import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/test-app.ts';

// The guestbook is the example teams copy: what a hostile client tries on it. A body that is not
// a form is a 400, never a 500; an entry belongs to the session that wrote it and its owner id is
// never sent; one client's writes are rate limited (client/pages/guestbook/guestbook.tsx). The demo's
// own tests: the host's are over tests/apps/host.

const FORM = 'application/x-www-form-urlencoded';
/** React Router's navigation data for the page: what a <Form> posts to with JavaScript. */
const DATA = '/guestbook.data';
const demo = (env: Record<string, string> = {}) => createTestApp(env, {}, { app: 'demo' });

function cookieOf(res: request.Response): string {
  const setCookie = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
  return setCookie.map((cookie) => cookie.split(';')[0]!).join('; ');
}

type Listed = { id: string; name: string; message: string; createdAt: string };

async function entriesOf(app: ReturnType<typeof createTestApp>['app']): Promise<Listed[]> {
  return ((await request(app).get('/api/guestbook').expect(200)).body as { entries: Listed[] }).entries;
}

describe('the guestbook under abuse', () => {
  it.each(['/guestbook', DATA])('POST %s with JSON (or any body that is not a form) is a 400 with no failure line', async (path) => {
    const { app, logs } = demo();
    const json = await request(app).post(path).set('Content-Type', 'application/json').send('{"name":"x","message":"y"}');
    expect(json.status).toBe(400);
    expect(json.text).not.toMatch(/\n\s+at /);
    expect(logs.failureCount()).toBe(0);
  });

  it('an entry is deleted only by the session that wrote it; its owner id is never listed', async () => {
    const { app, logs } = demo();
    const name = `Owner ${Math.random()}`;
    const posted = await request(app).post('/guestbook').type(FORM).send(`name=${name}&message=mine`).expect(303);
    const owner = cookieOf(posted);
    const entry = (await entriesOf(app)).find((listed) => listed.name === name)!;
    expect(Object.keys(entry).sort()).toEqual(['attachment', 'createdAt', 'id', 'message', 'name']);

    // Another visitor knows the id (it is public) but not the session: refused, the entry stays.
    await request(app).post(DATA).type(FORM).send(`intent=delete&id=${entry.id}`).expect(403);
    const page = await request(app).get('/guestbook').expect(200);
    expect(page.text).toContain(name);
    expect(page.text).not.toContain(`Delete the entry of ${name}`);
    expect((await entriesOf(app)).some((listed) => listed.id === entry.id)).toBe(true);

    // Its writer sees the button, and deletes it.
    const own = await request(app).get('/guestbook').set('Cookie', owner).expect(200);
    expect(own.text).toContain(`Delete the entry of ${name}`);
    await request(app).post(DATA).set('Cookie', owner).type(FORM).send(`intent=delete&id=${entry.id}`).expect(200);
    expect((await entriesOf(app)).some((listed) => listed.id === entry.id)).toBe(false);
    expect(logs.failureCount()).toBe(0);
  });

  it('one client writes at most 10 times a minute: then 429 with Retry-After, the typed values kept, nothing added', async () => {
    const { app, logs } = demo();
    for (let i = 0; i < 10; i++) await request(app).post('/guestbook').type(FORM).send(`name=Flood&message=${i}`).expect(303);
    const before = (await entriesOf(app)).length;
    const refused = await request(app).post('/guestbook').type(FORM).send('name=Flood&message=eleven').expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(refused.text).toContain('You are writing too fast');
    expect(refused.text).toContain('eleven');
    expect((await entriesOf(app)).length).toBe(before);
    expect(logs.failureCount()).toBe(0);
  });

  it('an IPv6 client counts by its /56, so new addresses of its own prefix get no new window', async () => {
    const { app } = demo({ TRUST_PROXY: 'loopback' });
    const post = (address: string) =>
      request(app).post('/guestbook').set('X-Forwarded-For', address).type(FORM).send('name=Six&message=hello');
    for (let i = 1; i <= 10; i++) await post(`2001:db8:0:${i}::${i}`).expect(303);
    await post('2001:db8:0:ff::1').expect(429);
    await post('2001:db8:0:100::1').expect(303); // another /56
  });
});
