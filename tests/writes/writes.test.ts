import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream, UNSAFE_SingleFetchRedirectSymbol as REDIRECT } from 'react-router';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { pageDigest } from '../../tools/harness/digests.ts';
import { loadConfig } from '../../server/config/config.ts';
import { createSessions } from '../../server/writes/session.ts';
import { createMemorySessionStore } from '../../server/writes/memory-sessions.ts';
import { createTestApp } from '../support/test-app.ts';

// What loaders and actions answer, over HTTP: headers, cookies, redirects, statuses, sessions.
// The fixture app's /writes page and /api/writes resource route (tests/apps/host/app/writes.server.ts,
// `?do=`); a navigation's data is React Router's single fetch (`/writes.data`, a turbo-stream).

const app = () => createTestApp();
const FORM = 'application/x-www-form-urlencoded';
const cookies = (res: request.Response) => (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];

/** What React Router's client reads from a navigation's data (its own decoder). */
async function navigationData(res: request.Response): Promise<unknown> {
  const { value } = await decodeViaTurboStream(new Blob([res.text]).stream(), globalThis);
  return value;
}

describe('headers and cookies from loaders and actions', () => {
  it('a loader’s redirect keeps every Set-Cookie and its own headers, on the page and in navigation data', async () => {
    const { app: host } = app();
    const page = await request(host).get('/writes?do=redirect-with-cookies').expect(302);
    expect(page.headers.location).toBe('/fixture/after');
    expect(cookies(page)).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(page.headers['x-route']).toBe('writes');
    // React Router tells its client of a redirect in a 202 (a fetch would follow a 3xx itself).
    const nav = await request(host).get('/writes.data?do=redirect-with-cookies').expect(202);
    const told = (await navigationData(nav)) as Record<symbol, unknown>;
    expect(told[REDIRECT]).toMatchObject({ redirect: '/fixture/after', status: 302 });
    expect(cookies(nav)).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(nav.headers['x-route']).toBe('writes');
  });

  it('an action’s redirect is a 303 for a document post, with its cookies', async () => {
    const { app: host } = app();
    const res = await request(host).post('/writes?do=redirect-with-cookies').type(FORM).send('x=1').expect(303);
    expect(res.headers.location).toBe('/fixture/after');
    expect(cookies(res)).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });

  it('data() headers go on the answer, every cookie kept, but a route cannot change the framing headers', async () => {
    const { app: host } = app();
    const res = await request(host).post('/writes.data?do=headers').type(FORM).send('x=1').expect(200);
    expect(cookies(res)).toEqual(['c=3; Path=/', 'd=4; Path=/']);
    expect(res.headers['content-type']).toBe('text/x-script');
    // A document post runs the action, then the loaders: here both set the same two cookies,
    // which React Router sends once (its getDocumentHeaders).
    const page = await request(host).post('/writes?do=headers').type(FORM).send('x=1').expect(200);
    expect(cookies(page)).toEqual(['c=3; Path=/', 'd=4; Path=/']);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('an action’s redirect to another origin is refused: one failure with one digest, the action’s data never sent', async () => {
    const { app: host, logs } = app();
    const res = await request(host).post('/writes?do=redirect-elsewhere').type(FORM).send('x=1').expect(500);
    expect(res.headers.location).toBeUndefined();
    expect(logs.failures()).toHaveLength(1);
    expect(logs.failures()[0]).toMatchObject({ digest: pageDigest(res.text), error: { type: 'CrossOriginRedirectError' } });
  });

  it('a thrown 4xx keeps its status, shows what the app said, and is no failure; a thrown 404 is a 404', async () => {
    const { app: host, logs } = app();
    const bad = await request(host).post('/writes?do=bad-request').type(FORM).send('x=1').expect(400);
    expect(bad.text).toContain('The fixture says no');
    await request(host).post('/writes?do=not-found').type(FORM).send('x=1').expect(404);
    const nav = await request(host).post('/writes.data?do=bad-request').type(FORM).send('x=1').expect(400);
    expect(await navigationData(nav)).toMatchObject({ error: { status: 400, data: 'The fixture says no' } });
    expect(logs.failureCount()).toBe(0);
  });

  it('an action reads a JSON body as JSON', async () => {
    const { app: host } = app();
    const json = await request(host)
      .post('/writes.data')
      .send({ note: 'hi', n: [1, 2] })
      .expect(200);
    expect(await navigationData(json)).toEqual({ data: { body: { note: 'hi', n: [1, 2] } } });
  });
});

describe('sessions', () => {
  it('the session round-trips through its signed cookie; a tampered or garbled one is a new session, never a 500', async () => {
    const { app: host, logs } = app();
    const first = await request(host).get('/writes').expect(200);
    expect(first.text).toContain('&quot;visits&quot;:1');
    const cookie = cookies(first)[0]!.split(';')[0]!;
    const second = await request(host).get('/writes').set('Cookie', cookie).expect(200);
    expect(second.text).toContain('&quot;visits&quot;:2');
    const [name, value] = cookie.split('=') as [string, string];
    for (const forged of [
      `${name}=${value.replace(/^./, 'A')}`,
      `${name}=%%%`,
      `${name}=${'x'.repeat(4000)}`,
      `${name}=e30%3D.`,
      `${name}=`,
    ]) {
      const res = await request(host).get('/writes').set('Cookie', forged).expect(200);
      expect(res.text).toContain('&quot;visits&quot;:1');
    }
    expect(logs.failureCount()).toBe(0);
  });
});

describe('session secrets', () => {
  it('a rotated secret still reads the cookies it signed; a secret dropped from the list no longer does', async () => {
    const [older, newer] = ['o'.repeat(32), 'n'.repeat(32)];
    // One store behind the three apps, as one Redis or database is behind a fleet's releases.
    const store = createMemorySessionStore();
    const withSecrets = (secrets: string) => {
      const config = loadConfig({ NODE_ENV: 'production', SESSION_SECRET: secrets });
      return createTestApp({ SESSION_SECRET: secrets }, { sessions: createSessions(config, store, config.sessionSecrets!) }).app;
    };
    const first = await request(withSecrets(older)).get('/writes').expect(200);
    const cookie = cookies(first)[0]!.split(';')[0]!;
    const rotated = await request(withSecrets(`${newer},${older}`))
      .get('/writes')
      .set('Cookie', cookie)
      .expect(200);
    expect(rotated.text).toContain('&quot;visits&quot;:2');
    const [, signature] = cookies(rotated)[0]!.split(';')[0]!.split('.');
    expect(signature).not.toBe(cookie.split('.')[1]); // signed again, with the newest
    const dropped = await request(withSecrets(newer)).get('/writes').set('Cookie', cookie).expect(200);
    expect(dropped.text).toContain('&quot;visits&quot;:1');
  });

  it('is HttpOnly, SameSite=Lax, for the whole site, and Secure behind an https PUBLIC_ORIGIN', async () => {
    const plain = await request(app().app).get('/writes').expect(200);
    expect(cookies(plain)[0]).toMatch(/^__session=[^;]+; Max-Age=1209600; Path=\/; HttpOnly; SameSite=Lax$/);
    const secure = createTestApp({ PUBLIC_ORIGIN: 'https://shop.example.com' });
    const behindTls = await request(secure.app).get('/writes').expect(200);
    expect(cookies(behindTls)[0]).toContain('; Secure');
  });
});

describe('the context', () => {
  it('gives loaders and actions a logger whose lines carry the request id', async () => {
    const { app: host, logs } = app();
    const res = await request(host).post('/api/writes?do=log').send({ a: 1 }).expect(200);
    const reqId = String(res.headers['x-request-id']);
    expect(logs.lines.filter((line) => line.msg === 'the action logged')).toEqual([
      expect.objectContaining({ reqId, note: 'from the action', level: 30 }),
    ]);
  });
});

describe('context.limit', () => {
  it('a rule it cannot keep (a window past a day) is the action’s failure, named in its line', async () => {
    const { app: host, logs } = app();
    const res = await request(host).post('/api/writes?do=limit-a-week').send({ a: 1 }).expect(500);
    expect(JSON.stringify(res.body)).not.toContain('windowMs');
    expect(logs.failures()).toEqual([
      expect.objectContaining({
        error: expect.objectContaining({ type: 'TypeError', message: expect.stringContaining('context.limit: "windowMs" must be') }),
      }),
    ]);
  });
});

describe('resource routes', () => {
  it('answer any value as JSON, HEAD without a body, and failures as the JSON error', async () => {
    const { app: host, logs } = app();
    const failed = await request(host).get('/api/writes?do=throw').expect(500).expect('Content-Type', /json/);
    const { digest } = (failed.body as { error: { digest: string } }).error;
    expect(logs.failures()).toEqual([expect.objectContaining({ digest, route: 'resource:routes/writes-api' })]);
    expect(JSON.stringify(failed.body)).not.toContain('on purpose');
    const res = await request(host).post('/api/writes').send({ a: 1 }).expect(200).expect('Content-Type', /json/);
    expect(res.body).toEqual({ body: { a: 1 } });
    const form = await request(host).post('/api/writes').type(FORM).send('x=1&x=2&y=%C3%A9').expect(200);
    expect(form.body).toEqual({
      body: [
        ['x', '1'],
        ['x', '2'],
        ['y', 'é'],
      ],
    });
    // What the app threw on purpose (`data(null, { status: 404 })`) is its answer, as React Router sends it, and no failure.
    await request(host).post('/api/writes?do=not-found').send({ a: 1 }).expect(404).expect('Content-Type', /json/);
    expect(logs.failures()).toEqual([expect.objectContaining({ digest })]);
  });
});
