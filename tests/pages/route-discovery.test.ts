import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDescriptor } from '../../shared/route-discovery.ts';
import { pageConfig } from '../support/page-config.ts';
import { exchange, parseResponse } from '../support/raw-http.ts';
import { createTestApp, DIAG, type TestApp } from '../support/test-app.ts';

// Route discovery (shared/route-discovery.ts): a page's document names only the routes its URL
// matched; the browser asks GET /_routes/<path>?build=<release> for the others. The answer is
// what a request for that path would match, cached for the release, and nothing for a path
// without a page.

describe('route discovery', () => {
  let host: TestApp;
  let build: string;
  const discover = (path: string, release = build) => request(host.app).get(`/_routes${path}?build=${release}`);
  const routesIn = (res: { body: unknown }) => (res.body as { routes: RouteDescriptor[] }).routes;
  const ids = (routes: readonly RouteDescriptor[]) => routes.map((route) => route.id);

  beforeAll(async () => {
    host = createTestApp();
    build = pageConfig((await request(host.app).get('/').expect(200)).text).build;
  });

  it("answers a page's path with its branch, parents first, as the document of that page names it", async () => {
    for (const [path, branch] of [
      ['/', ['site', 'home']],
      ['/guide/streaming', ['site', 'guide']],
      ['/guestbook', ['site', 'guestbook']],
    ] as const) {
      const res = await discover(path).expect(200).expect('Content-Type', /json/);
      expect(ids(routesIn(res)), path).toEqual(branch);
      expect(routesIn(res).map((route) => route.parentId)).toEqual(['__host', 'site']);
      const documentRoutes = pageConfig((await request(host.app).get(path).expect(200)).text).router.routes;
      expect(res.body.routes, path).toEqual(documentRoutes);
    }
  });

  it('answers many paths in one batch, each as its own request would, with the cache of the release', async () => {
    const paths = ['/', '/guestbook', '//guestbook', '/no-such-page', '/api/guestbook'];
    const query = paths.map((path) => `p=${encodeURIComponent(path)}`).join('&');
    const res = await request(host.app).get(`/_routes?build=${build}&${query}`).expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const { branches } = res.body as { branches: Record<string, RouteDescriptor[]> };
    expect(Object.keys(branches)).toEqual(paths);
    for (const path of ['/', '/guestbook', '/no-such-page', '/api/guestbook']) {
      expect(branches[path], path).toEqual(routesIn(await discover(path).expect(200)));
    }
    expect(ids(branches['//guestbook']!)).toEqual(['site', 'guestbook']);
    expect(branches['/guestbook']!.at(-1)!.styles).toEqual([expect.stringMatching(/^\/assets\/Guestbook-[\w-]+\.css$/)]);
  });

  it('refuses a batch path that is not a path, too many paths, or a batch of another release', async () => {
    await request(host.app).get(`/_routes?build=${build}&p=guestbook`).expect(400);
    await request(host.app).get(`/_routes?build=${build}&p=/a&x=1`).expect(400);
    await request(host.app)
      .get(`/_routes?build=${build}&${Array.from({ length: 961 }, (_, i) => `p=/${i}`).join('&')}`)
      .expect(400);
    await request(host.app).get(`/_routes?build=other&p=/`).expect(409);
    // One path's form takes no paths.
    await request(host.app).get(`/_routes/guestbook?build=${build}&p=/`).expect(400);
  });

  it('describes each route as the browser needs it: path, data, boundary, static meta, and built chunks that are served', async () => {
    const { routes } = (await discover('/guide/streaming').expect(200)).body as { routes: RouteDescriptor[] };
    expect(routes[1]).toMatchObject({ id: 'guide', path: 'guide/:topic?', data: true, boundary: true });
    expect(routes[1]!.meta).toBeUndefined(); // the Guide page exports its meta: it is made from data
    const about = (await discover('/about').expect(200)).body as { routes: RouteDescriptor[] };
    expect(about.routes[1]).toMatchObject({ id: 'about', meta: { title: 'About' } });
    for (const url of [routes[1]!.module, ...routes[1]!.imports]) {
      expect(url).toMatch(/^\/assets\/[\w-]+\.js$/);
      await request(host.app)
        .get(url)
        .expect(200)
        .expect('Content-Type', /javascript/);
    }
  });

  it("renders a title made from loader data by the page module's meta export, which the answer leaves out", async () => {
    const res = await request(host.app).get('/guide/failures').expect(200);
    expect(res.text).toContain('<title>Failures · Guide</title>');
  });

  it('answers nothing for a path without a page: none at all, a resource route, diagnostics without the token', async () => {
    for (const path of ['/no/such/page', '/guide/a/b', '/api/guestbook', '/_diag/slow', '/_diag']) {
      expect((await discover(path).expect(200)).body, path).toEqual({ routes: [] });
    }
  });

  it('names diagnostic routes only with the token, and then for nobody to keep', async () => {
    const res = await discover('/_diag/slow').set(DIAG).expect(200);
    expect(ids(routesIn(res))).toEqual(['diag', 'diag-slow']);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is cached for the life of the release; a cache tells requests with and without the token apart', async () => {
    const res = await discover('/about').expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/x-diagnostics-token/i);
    const head = await request(host.app).head(`/_routes/about?build=${build}`).expect(200);
    expect(head.headers['cache-control']).toBe(res.headers['cache-control']);
    expect(head.text ?? '').toBe('');
  });

  it('refuses a page of another release with a 409 that is kept nowhere, so the browser loads the document', async () => {
    const res = await discover('/about', 'AnotherBuild').expect(409);
    expect(res.body.error.message).toBe('This page is from another release of the site: load it again');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it.each([
    ['no release', '/_routes/about'],
    ['an empty release', '/_routes/about?build='],
    ['a second parameter', '/_routes/about?build=x&y=1'],
    ['the release twice', '/_routes/about?build=x&build=y'],
    ['markup for a release', '/_routes/about?build=%3Cscript%3E'],
    ['a release of 65 characters', `/_routes/about?build=${'a'.repeat(65)}`],
  ])('refuses %s with a 400 that says what it expects', async (_case, path) => {
    const res = await request(host.app).get(path).expect(400);
    expect(res.body.error.message).toBe("The query must be build=<the page's release> and nothing else");
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts|node_modules/);
  });

  it('refuses broken percent-encoding with a 400 and answers control characters as any path without a page', async () => {
    await request(host.app).get(`/_routes/%zz?build=${build}`).expect(400);
    expect((await discover('/%00%1b%7f').expect(200)).body).toEqual({ routes: [] });
  });

  it('answers other methods with 405 and Allow, before anything else', async () => {
    const res = await request(host.app).post(`/_routes/about?build=${build}`).send('x').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  describe('over a real socket', () => {
    let url: string;
    beforeAll(async () => {
      url = await host.listen();
    });
    afterAll(() => host.close());

    it('bounds a path by the header limit: a 431, logged as any refusal', async () => {
      const raw = await exchange(url, `GET /_routes/${'a'.repeat(20_000)}?build=${build} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(parseResponse(raw).status).toBe(431);
    });

    it('answers 2,000 distinct paths asked at once, each with its own branch', async () => {
      const paths = Array.from({ length: 2_000 }, (_, i) => (i % 2 === 0 ? `/guide/topic-${i}` : `/nothing-${i}`));
      const answers = await Promise.all(
        paths.map(async (path) => {
          const res = await fetch(`${url}/_routes${path}?build=${build}`);
          return [res.status, ids(((await res.json()) as { routes: RouteDescriptor[] }).routes)] as const;
        }),
      );
      answers.forEach(([status, branch], i) => {
        expect(status).toBe(200);
        expect(branch).toEqual(i % 2 === 0 ? ['site', 'guide'] : []);
      });
    });
  });
});
