import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { createRenderer } from '../../client/entry-server.tsx';
import { routes } from '../../client/routes.tsx';
import { fixture } from '../fixtures/fixture-route.ts';
import { serverErrorMessage } from '../../shared/messages.ts';
import { seenSignals } from '../fixtures/fixture.server.ts';
import { pageDigest } from '../../tools/harness/digests.ts';
import { fetchOnce, openStream } from '../../tools/harness/http.ts';
import { listeningTestApp, DIAG } from '../support/test-app.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';
import { pageConfig } from '../support/page-config.ts';

describe('pages from the route table', () => {
  const host = listeningTestApp({}, {}, createRenderer([...routes, fixture]));

  it('serves a page added to the table with no other edit, its loader data in the HTML for hydration', async () => {
    const res = await request(host.app).get('/fixture/ada').expect(200);
    expect(res.text).toContain('Hello from the fixture, ada');
    expect(res.text).toContain('<title>Fixture page</title>');
    expect(pageConfig(res.text).router.loaderData.fixture).toMatchObject({
      greeting: 'Hello from the fixture, ada',
      later: { __deferred: 'fixture:later' },
    });
  });

  it('streams a loader’s promise after its fallback, in one response, without holding the shell', async () => {
    const res = await fetchOnce(`${host.url}/fixture/ada`, { headers: { 'user-agent': BROWSER_UA } });
    expect(res.status).toBe(200);
    const fallbackChunk = res.chunks.findIndex((chunk) => chunk.includes('fixture fallback'));
    const laterChunk = res.chunks.findIndex((chunk) => chunk.includes('LATER-PART-ARRIVED'));
    expect(fallbackChunk).toBeGreaterThanOrEqual(0);
    expect(laterChunk).toBeGreaterThan(fallbackChunk);
  });

  it('preloads the chunks of the routes a request matches, so they load with the entry', async () => {
    const res = await request(host.app).get('/guide/streaming').expect(200);
    const preloads = [...res.text.matchAll(/<link rel="modulepreload"[^>]* href="([^"]+)"/g)].map((match) => match[1]!);
    expect(preloads.some((href) => /^\/assets\/SiteLayout-[\w-]+\.js$/.test(href))).toBe(true);
    expect(preloads.some((href) => /^\/assets\/Guide-[\w-]+\.js$/.test(href))).toBe(true);
    expect(preloads.some((href) => href.includes('/Home-'))).toBe(false);
  });

  it('a layout’s loader runs once per request and its data reaches the page', async () => {
    const res = await request(host.app).get('/guide/streaming').expect(200);
    const { loaderData } = pageConfig(res.text).router;
    expect(Object.keys(loaderData).sort()).toEqual(['guide', 'site']);
    expect(res.text).toContain('class="site-header"');
  });

  it('a loader’s notFound() answers 404 with noindex, inside the layout, logged at info without a digest', async () => {
    const res = await request(host.app).get('/guide/no-such-topic').expect(404);
    expect(res.text).toContain('<meta name="robots" content="noindex"/>');
    expect(res.text).toContain('This page could not be found.');
    expect(res.text).toContain('class="site-header"');
    const reqId = res.headers['x-request-id'] as string;
    // A 4xx is one access line with its reason (docs/logs.md, "The access line"), no failure line.
    expect(host.logs.failures(reqId)).toEqual([]);
    expect(host.logs.access(reqId)).toMatchObject({ level: 30, status: 404, route: 'page:guide', reason: expect.any(String) });
    expect(host.logs.access(reqId)!.digest).toBeUndefined();
  });

  it('a loader’s redirect answers 302 with its Location', async () => {
    const res = await request(host.app).get('/guide').expect(302);
    expect(res.headers.location).toBe('/guide/streaming');
    const diag = await request(host.app).get('/_diag/redirect?to=%2Fguide%2Ffailures').set(DIAG).expect(302);
    expect(diag.headers.location).toBe('/guide/failures');
  });

  it.each(['https://evil.example/', '//evil.example/x', 'javascript:alert(1)'])(
    'refuses a redirect to %s with a 500 whose digest is logged once',
    async (to) => {
      const res = await request(host.app)
        .get(`/_diag/redirect?to=${encodeURIComponent(to)}`)
        .set(DIAG)
        .expect(500);
      expect(res.headers.location).toBeUndefined();
      const digest = pageDigest(res.text);
      const failures = host.logs.failures(res.headers['x-request-id']);
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatchObject({ digest, status: 500, error: { type: 'CrossOriginRedirectError' } });
    },
  );

  it('a loader that throws answers 500 in its route’s boundary, keeping the layout, with the digest of its one log line', async () => {
    const res = await request(host.app).get('/_diag/loader-error').set(DIAG).expect(500);
    expect(res.text).toContain(serverErrorMessage('127.0.0.1'));
    expect(res.text).toContain('data-testid="diag-layout"');
    expect(res.text).toContain('<meta name="robots" content="noindex"/>');
    const digest = pageDigest(res.text);
    const failures = host.logs.failures(res.headers['x-request-id']);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      digest,
      status: 500,
      route: 'page:diag-loader-error',
      error: { message: 'Diagnostic loader error: the loader threw' },
    });
  });

  it.each([
    ['/', 200],
    ['/guide', 302],
    ['/guide/no-such-topic', 404],
    ['/_diag/server-error', 500],
    ['/_diag/loader-error', 500],
    ['/nowhere', 404],
  ])('HEAD %s answers with the status GET has (%i) and no body', async (path, status) => {
    const get = await request(host.app).get(path).set(DIAG);
    const head = await request(host.app).head(path).set(DIAG);
    expect(get.status).toBe(status);
    expect(head.status).toBe(status);
    expect(head.text ?? '').toBe('');
  });

  it('a notFound() that no route boundary catches answers the site’s own 404 page', async () => {
    const unknown = await request(host.app).get('/no-such-page').expect(404);
    const res = await request(host.app).get('/fixture/ada?missing=1').expect(404);
    const normalise = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""');
    expect(normalise(res.text)).toBe(normalise(unknown.text));
    // A 4xx is one access line with its reason, no failure line.
    expect(host.logs.forRequest(res.headers['x-request-id'] as string)).toEqual([
      expect.objectContaining({ status: 404, reason: expect.any(String) }),
    ]);
  });

  it('answers with the status of the failure it logged: a loader’s 400 is a 400, on a page and in navigation data', async () => {
    const page = await request(host.app).get('/_diag/slow?ms=abc').set(DIAG).expect(400);
    expect(host.logs.forRequest(page.headers['x-request-id'] as string)).toMatchObject([
      { status: 400, reason: expect.any(String), msg: 'request completed' },
    ]);
    const data = await request(host.app).get('/_data/_diag/slow?ms=abc&_routes=diag-slow').set(DIAG).expect(400);
    expect(JSON.parse(data.text.split('\n')[0]!)).toMatchObject({ errors: { 'diag-slow': { status: 400 } } });
  });

  it('a loader sees the same query string on a document load and in navigation data', async () => {
    const query = '?a&b=%20x&c=1+2';
    const page = await request(host.app).get(`/fixture/q${query}`).expect(200);
    expect(pageConfig(page.text).router.loaderData.fixture).toMatchObject({ search: query });
    const data = await request(host.app).get(`/_data/fixture/q${query}&_routes=fixture`).expect(200);
    expect(JSON.parse(data.text.split('\n')[0]!)).toMatchObject({ data: { fixture: { search: query } } });
  });

  it('a Host header with an impossible port is never a 500: it is a 400 (tests/edge/host-origin.test.ts has the class)', async () => {
    await request(host.app).get('/').set('host', 'a.example:99999').expect(400);
    await request(host.app).get('/guide').set('host', 'a.example:99999').expect(400);
  });

  it('a path that looks like another host is only a path here: never loaded as another page', async () => {
    await request(host.app).get('//evil.example/guide').expect(404);
    await request(host.app).get('/_data//evil.example?_routes=home').expect(404);
  });

  it('other methods on a page get 405 with Allow; on an unknown path, 404', async () => {
    const res = await request(host.app).post('/guide/streaming').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    await request(host.app).delete('/nowhere').expect(404);
  });

  it('a client that disconnects aborts the loader’s signal', async () => {
    const before = seenSignals.length;
    const stream = await openStream(`${host.url}/fixture/ada?hold=20000`, { 'user-agent': BROWSER_UA }, 'fixture fallback');
    expect(stream).toMatchObject({ open: true, first: expect.stringContaining('fixture fallback') });
    const signal = seenSignals[before]!;
    expect(signal.aborted).toBe(false);
    stream.destroy();
    await vi.waitFor(() => expect(signal.aborted).toBe(true));
    expect((signal.reason as Error).name).toBe('ClientAbortError');
  });

  it('navigation data: newline-delimited JSON, never cached, with the streamed part on its own line', async () => {
    const res = await request(host.app)
      .get('/_data/fixture/ada?_routes=fixture')
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.on('data', (chunk: Buffer) => (text += chunk.toString()));
        r.on('end', () => done(null, text));
      })
      .expect(200);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers['content-type']).toContain('application/x-ndjson');
    const lines = (res.body as string)
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({
      data: { fixture: { greeting: 'Hello from the fixture, ada', later: { __deferred: 'fixture:later' } } },
      errors: null,
    });
    expect(lines[1]).toEqual({ id: 'fixture:later', value: 'LATER-PART-ARRIVED' });
  });

  it('navigation data carries a loader failure with the digest it logged, and a redirect as a line', async () => {
    const failed = await request(host.app).get('/_data/_diag/loader-error?_routes=diag-loader-error').set(DIAG).expect(500);
    const head = JSON.parse(failed.text.split('\n')[0]!) as { errors: Record<string, { digest: string }> };
    const [line] = host.logs.failures(failed.headers['x-request-id']);
    expect(head.errors['diag-loader-error']).toEqual({ routeFailure: true, status: 500, digest: line!.digest });
    const moved = await request(host.app).get('/_data/guide?_routes=guide').expect(200);
    expect(JSON.parse(moved.text)).toEqual({ redirect: '/guide/streaming' });
  });

  it.each(['', 'a,b c', Array.from({ length: 17 }, (_, i) => `r${i}`).join(','), 'x'.repeat(65)])(
    'navigation data refuses _routes=%s with 400',
    async (ids) => {
      const res = await request(host.app)
        .get(`/_data/guide/streaming?_routes=${encodeURIComponent(ids)}`)
        .expect(400);
      expect(res.body).toEqual({ error: { status: 400, message: '_routes must name 1 to 16 route ids' } });
    },
  );

  it('diagnostic pages and their data do not exist without the token: the same 404 as any unknown path', async () => {
    const unknown = await request(host.app).get('/no-such-page').expect(404);
    for (const path of ['/_diag/slow', '/_diag/loader-error', '/_diag/api-error']) {
      const res = await request(host.app).get(path).expect(404);
      const normalise = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""');
      expect(normalise(res.text)).toBe(normalise(unknown.text));
    }
    await request(host.app).get('/_data/_diag/slow?_routes=diag-slow').expect(404);
  });
});
