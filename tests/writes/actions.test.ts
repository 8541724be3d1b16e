import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { pageDigest } from '../../tools/harness/digests.ts';
import { createTestApp, DIAG } from '../support/test-app.ts';

// Route actions over HTTP, with JavaScript off: a plain <form method="post"> to a page (the
// fixture app's /board, tests/apps/host/app/routes/board.tsx).

const FORM = 'application/x-www-form-urlencoded';

/** The session cookie a response set, as the browser sends it back. */
function cookieOf(res: request.Response): string {
  const setCookie = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
  const session = setCookie.find((cookie) => cookie.startsWith('__session='));
  if (session === undefined) throw new Error(`no session cookie in ${JSON.stringify(setCookie)}`);
  return session.split(';')[0]!;
}

describe('actions and forms without JavaScript', () => {
  it('a valid post runs the action and answers 303 to the page, which shows the flash once', async () => {
    const { app, logs } = createTestApp();
    const posted = await request(app).post('/board').type(FORM).send('name=Ada&message=Hello%20there').expect(303);
    expect(posted.headers.location).toBe('/board');
    const cookie = cookieOf(posted);
    const page = await request(app).get('/board').set('Cookie', cookie).expect(200);
    expect(page.text).toContain('Thanks, Ada');
    expect(page.text).toContain('Ada: Hello there');
    // The flash was read: the session changed, and the next page no longer shows it.
    const again = await request(app).get('/board').set('Cookie', cookieOf(page)).expect(200);
    expect(again.text).not.toContain('Thanks, Ada');
    expect(again.text).toContain('Ada: Hello there');
    expect(logs.failureCount()).toBe(0);
  });

  it('an invalid post renders the form again with its messages and the typed values, 422, and no failure line', async () => {
    const { app, logs } = createTestApp();
    const res = await request(app)
      .post('/board')
      .type(FORM)
      .send(`name=Grace&message=${'x'.repeat(201)}`)
      .expect(422);
    expect(res.text).toContain('A name and a message, each of 1 to 200 characters.');
    expect(res.text).toMatch(/<input[^>]*name="name"[^>]*value="Grace"/);
    expect(res.text).toContain('x'.repeat(201));
    const empty = await request(app).post('/board').type(FORM).send('name=&message=').expect(422);
    expect(empty.text).toContain('A name and a message, each of 1 to 200 characters.');
    expect(logs.failureCount()).toBe(0);
    expect(logs.accessLines().map((line) => line.status)).toEqual([422, 422]);
  });

  it('a post to a page without an action is 405 with Allow, before its body is read', async () => {
    const { app } = createTestApp();
    const res = await request(app).post('/fixture/x').type(FORM).send('a=1').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    await request(app).put('/board').type(FORM).send('name=a&message=b').expect(303);
    const options = await request(app).options('/board').expect(405);
    expect(options.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
  });

  it('an action that throws is one failure: 500, the digest in the route boundary, on one line and in one report', async () => {
    const reports: { digest: string }[] = [];
    const { app, logs } = createTestApp({}, { telemetry: { report: (report) => reports.push(report), traceMeta: () => undefined } });
    const res = await request(app).post('/_diag/action-error').set(DIAG).type(FORM).send('').expect(500);
    const digest = pageDigest(res.text);
    // The route's boundary shows it: the diagnostics layout above it stays.
    expect(res.text).toContain('data-testid="diag-layout"');
    expect(res.text).not.toContain('Run the failing action');
    expect(logs.failures()).toHaveLength(1);
    expect(logs.failures()[0]).toMatchObject({ digest, status: 500, route: 'page:diag/action-error' });
    expect(logs.failures()[0]!.error).toMatchObject({ message: 'Diagnostic action error: the action threw' });
    expect(reports.map((report) => report.digest)).toEqual([digest]);
  });

  it('the diagnostic action does not exist without the token', async () => {
    const { app, logs } = createTestApp();
    await request(app).post('/_diag/action-error').type(FORM).send('').expect(404);
    expect(logs.failureCount()).toBe(0);
  });
});

describe('resource routes', () => {
  it('answer GET with the Response their loader returns, and HEAD with its headers and no body', async () => {
    const { app } = createTestApp();
    const res = await request(app)
      .get('/api/readonly')
      .expect(200)
      .expect('Content-Type', /application\/json/);
    expect(res.body).toEqual({ items: ['one', 'two'] });
    expect(res.headers['cache-control']).toBe('no-cache');
    const head = await request(app)
      .head('/api/readonly')
      .expect(200)
      .expect('Content-Type', /application\/json/);
    expect(head.text).toBeFalsy();
    const post = await request(app).post('/api/readonly').type(FORM).send('a=1').expect(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect(post.body).toMatchObject({ error: { status: 405 } });
  });
});

describe('prefetches', () => {
  it('a prefetch whose loader fails is one line at warn, not reported; the request that follows is a failure as usual', async () => {
    const reports: unknown[] = [];
    const { app, logs } = createTestApp({}, { telemetry: { report: (report) => reports.push(report), traceMeta: () => undefined } });
    // React Router's navigation data for the page (single fetch), as its <Link prefetch> asks for it.
    const path = '/_diag/loader-error.data';
    for (const marker of [{ Purpose: 'prefetch' }, { 'Sec-Purpose': 'prefetch;prerender' }]) {
      const res = await request(app).get(path).set(DIAG).set(marker).expect(500);
      const id = String(res.headers['x-request-id']);
      expect(logs.failures(id)).toEqual([]);
      const [line, ...more] = logs.forRequest(id).filter((entry) => entry.digest !== undefined && entry.msg !== logs.access(id)?.msg);
      expect(more).toEqual([]);
      expect(line).toMatchObject({ level: 40, prefetch: true, status: 500, route: 'data:diag/loader-error' });
    }
    expect(reports).toEqual([]);
    const clicked = await request(app).get(path).set(DIAG).expect(500);
    expect(logs.failures(String(clicked.headers['x-request-id']))).toHaveLength(1);
    expect(reports).toHaveLength(1);
  });
});
