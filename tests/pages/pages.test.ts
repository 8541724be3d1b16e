import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { serverErrorMessage } from '../../shared/messages.ts';
import { pageDigest } from '../../tools/harness/digests.ts';
import { fetchOnce, openStream } from '../../tools/harness/http.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';
import { guardedCalls, seenSignals } from '../support/fixture-state.ts';
import { listeningTestApp, DIAG } from '../support/test-app.ts';

// Pages of the fixture app (tests/apps/host/app/routes/) through the host: what React Router
// answers, with the host's statuses, failure lines, digests and refusals around it. React
// Router's own formats (its hydration data, its single fetch) are only read for what a page
// carries, never checked as formats.

/** The HTML without what differs from one answer to the next: the nonce and the request id. */
const normalise = (html: string, path: string) =>
  html
    .replace(/nonce="[^"]*"/g, 'nonce=""')
    .replace(/"requestId":"[^"]*"/g, '"requestId":""')
    .replaceAll(path, '<path>');

describe('pages of the app', () => {
  const host = listeningTestApp();

  it('serves a page of the app, its loader data in the HTML for hydration', async () => {
    const res = await request(host.app).get('/fixture/ada').expect(200);
    expect(res.text).toContain('<h1 data-testid="fixture">Hello from the fixture, ada</h1>');
    expect(res.text).toContain('<title>Fixture page</title>');
    // React Router's hydration data, streamed into the page: the route's loader data.
    const hydration = [...res.text.matchAll(/streamController\.enqueue\(("(?:[^"\\]|\\.)*")\)/g)].map(
      (match) => JSON.parse(match[1]!) as string,
    );
    expect(hydration.join('')).toContain('"routes/fixture"');
    expect(hydration.join('')).toContain('"Hello from the fixture, ada"');
  });

  it('streams a loader’s promise after its fallback, in one response, without holding the shell', async () => {
    const res = await fetchOnce(`${host.url}/fixture/ada`, { headers: { 'user-agent': BROWSER_UA } });
    expect(res.status).toBe(200);
    const fallbackChunk = res.chunks.findIndex((chunk) => chunk.includes('fixture fallback'));
    const laterChunk = res.chunks.findIndex((chunk) => chunk.includes('LATER-PART-ARRIVED'));
    expect(fallbackChunk).toBeGreaterThanOrEqual(0);
    expect(laterChunk).toBeGreaterThan(fallbackChunk);
  });

  it('preloads the modules of the routes a request matches, and no other page’s', async () => {
    const res = await request(host.app).get('/fixture/ada').expect(200);
    const preloads = [...res.text.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((match) => match[1]!);
    expect(preloads.some((href) => /^\/assets\/site-[\w-]+\.js$/.test(href))).toBe(true);
    expect(preloads.some((href) => /^\/assets\/fixture-[\w-]+\.js$/.test(href))).toBe(true);
    expect(preloads.some((href) => /\/(home|cached)-/.test(href))).toBe(false);
  });

  it('writes the build’s stylesheets into the document and preloads modules at low priority: the first paint waits for no request', async () => {
    const res = await request(host.app).get('/fixture/ada').expect(200);
    const nonce = /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))![1]!;
    const head = res.text.slice(0, res.text.indexOf('</head>'));
    const links = [...head.matchAll(/<link\b[^>]*>/g)].map(([tag]) => tag);
    const sheets = links.filter((tag) => tag.includes('rel="stylesheet"'));
    expect(sheets.length).toBeGreaterThan(0);
    for (const sheet of sheets) {
      // The link stays for React to hydrate, as `print`: fetched without holding the paint.
      expect(sheet).toContain('media="print"');
      const href = /href="([^"]+)"/.exec(sheet)![1]!;
      const css = (await request(host.app).get(href).expect(200)).text;
      expect(head).toContain(`<style nonce="${nonce}">${css}</style>${sheet}`);
    }
    const preloads = links.filter((tag) => tag.includes('rel="modulepreload"'));
    expect(preloads.length).toBeGreaterThan(0);
    for (const preload of preloads) expect(preload).toContain('fetchpriority="low"');
  });

  it('a layout’s loader runs once per request, and the page below it once', async () => {
    const before = { ...guardedCalls };
    await request(host.app).get('/guarded').set('x-let-in', 'Ada').expect(200);
    expect(guardedCalls).toEqual({ layout: before.layout + 1, page: before.page + 1 });
  });

  it('a loader’s 404 answers 404 inside the nearest layout’s boundary, logged at info without a digest', async () => {
    const res = await request(host.app).get('/fixture/ada?missing').expect(404);
    expect(res.text).toContain('data-testid="site-header"');
    const reqId = res.headers['x-request-id'] as string;
    // A 4xx is one access line with its reason (docs/logs.md, "The access line"), no failure line.
    expect(host.logs.failures(reqId)).toEqual([]);
    expect(host.logs.forRequest(reqId)).toEqual([
      expect.objectContaining({ level: 30, status: 404, route: 'page:routes/fixture', reason: expect.any(String) }),
    ]);
    expect(host.logs.access(reqId)!.digest).toBeUndefined();
  });

  it('a loader’s redirect answers 302 with its Location', async () => {
    const res = await request(host.app).get('/prerendered/moved').expect(302);
    expect(res.headers.location).toBe('/prerendered/fine');
    const diag = await request(host.app).get('/_diag/redirect?to=%2Ffixture%2Fada').set(DIAG).expect(302);
    expect(diag.headers.location).toBe('/fixture/ada');
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
    const digest = pageDigest(res.text);
    const failures = host.logs.failures(res.headers['x-request-id']);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      digest,
      status: 500,
      route: 'page:diag/loader-error',
      error: { message: 'Diagnostic loader error: the loader threw' },
    });
  });

  it.each([
    ['/', 200],
    ['/prerendered/moved', 302],
    ['/fixture/ada?missing', 404],
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

  it('answers with the status of the failure it logged: a loader’s 400 is a 400, on a page and in navigation data', async () => {
    const page = await request(host.app).get('/_diag/slow?ms=abc').set(DIAG).expect(400);
    expect(host.logs.forRequest(page.headers['x-request-id'] as string)).toMatchObject([
      { status: 400, reason: expect.any(String), msg: 'request completed' },
    ]);
    const data = await request(host.app).get('/_diag/slow.data?ms=abc').set(DIAG).expect(400);
    expect(data.text).toContain('"ms must be an integer from 0 to 30000"');
    expect(host.logs.failures(data.headers['x-request-id'] as string)).toEqual([]);
  });

  it('a loader sees the same query string on a document load and in navigation data', async () => {
    const query = '?a&b=%20x&c=1+2';
    const page = await request(host.app).get(`/fixture/q${query}`).expect(200);
    // In the hydration data, a JSON string inside a script's JSON string.
    expect(page.text).toContain(JSON.stringify(JSON.stringify(query)).slice(1, -1).replaceAll('&', '\\u0026'));
    const data = await request(host.app).get(`/fixture/q.data${query}`).expect(200);
    expect(data.text).toContain(JSON.stringify(query));
  });

  it('a Host header with an impossible port is never a 500: it is a 400 (tests/edge/host-origin.test.ts has the class)', async () => {
    await request(host.app).get('/').set('host', 'a.example:99999').expect(400);
    await request(host.app).get('/fixture/ada').set('host', 'a.example:99999').expect(400);
  });

  it('a path that looks like another host is only a path here: never loaded as another page', async () => {
    await request(host.app).get('//evil.example/fixture/ada').expect(404);
    await request(host.app).get('//evil.example/fixture/ada.data').expect(404);
  });

  it('other methods on a page get 405 with Allow; on an unknown path, 404', async () => {
    const res = await request(host.app).post('/fixture/ada').expect(405);
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

  it('navigation data streams the loader’s promise in the same answer, and the browser may keep it but asks again', async () => {
    const res = await request(host.app).get('/fixture/ada.data').expect(200);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.text).toContain('"Hello from the fixture, ada"');
    expect(res.text).toContain('"LATER-PART-ARRIVED"');
  });

  it('navigation data carries a loader failure with the digest it logged, and a redirect as data the browser follows', async () => {
    const failed = await request(host.app).get('/_diag/loader-error.data').set(DIAG).expect(500);
    const [line] = host.logs.failures(failed.headers['x-request-id']);
    expect(failed.text).toContain(`"digest","${line!.digest as string}"`);
    const moved = await request(host.app).get('/prerendered/moved.data').expect(202);
    expect(moved.text).toContain('"SingleFetchRedirect"');
    expect(moved.text).toContain('"/prerendered/fine"');
  });

  it('diagnostic pages and their data do not exist without the token: the same 404 as any unknown path, naming none of their modules', async () => {
    const unknown = await request(host.app).get('/no-such-page').expect(404);
    const unknownData = await request(host.app).get('/no-such-page.data').expect(404);
    for (const path of ['/_diag/slow', '/_diag/loader-error', '/_diag/server-error']) {
      const res = await request(host.app).get(path).expect(404);
      // React Router's 404 names the path it found no route for.
      expect(normalise(res.text, path), path).toBe(normalise(unknown.text, '/no-such-page'));
      const data = await request(host.app).get(`${path}.data`).expect(404);
      expect(normalise(data.text, path), path).toBe(normalise(unknownData.text, '/no-such-page'));
      await request(host.app).get(path.toUpperCase()).expect(404);
      await request(host.app).post(path).expect(404);
    }
  });
});
