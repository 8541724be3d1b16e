import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createRenderer } from '../../client/entry-server.tsx';
import { routes } from '../../client/routes.tsx';
import type { RouteDescriptor } from '../../shared/route-discovery.ts';
import { calls } from '../fixtures/guarded-layout.server.ts';
import { catchingRoute, exportsRoute, guarded } from '../fixtures/fixture-route.ts';
import { catching } from '../fixtures/catching.server.ts';
import { createTestApp } from '../support/test-app.ts';

// Route modules with React Router framework mode's exports, over HTTP: middleware that guards
// the routes below it, `headers` merged parent to child, a route's own ErrorBoundary, and the
// demo's sign-in, guarded page and resource-route sign-out.

const FORM = 'application/x-www-form-urlencoded';
const cookieOf = (res: request.Response) =>
  ((res.headers['set-cookie'] as unknown as string[] | undefined) ?? []).map((c) => c.split(';')[0]!).join('; ');

describe('middleware and headers of route modules', () => {
  const host = () => createTestApp({}, {}, createRenderer([...routes, guarded]));

  it('a layout’s middleware redirects before any loader below it runs, on a document load and in navigation data', async () => {
    const { app } = host();
    const before = { ...calls };
    const page = await request(app).get('/guarded').expect(302);
    expect(page.headers.location).toBe('/fixture/denied');
    const nav = await request(app).get('/_data/guarded?_routes=guard-layout,guarded-page').expect(200);
    expect(nav.text).toBe('{"redirect":"/fixture/denied"}\n');
    expect(calls).toEqual(before);
  });

  it('middleware hands a value to the loaders below through React Router’s context, and sets a header on the answer', async () => {
    const { app } = host();
    const res = await request(app).get('/guarded').set('x-let-in', 'Ada').expect(200);
    expect(res.text).toContain('Ada ');
    expect(res.headers['x-middleware']).toBe('ran');
  });

  it('headers exports merge parent to child as React Router’s do: a loader’s header only where a headers function passes it on, every cookie kept', async () => {
    const { app } = host();
    const res = await request(app).get('/guarded').set('x-let-in', 'Ada').expect(200);
    expect(res.headers['x-layout']).toBe('yes');
    expect(res.headers['x-page']).toBe('saw-loader');
    expect(res.headers['x-loader-only']).toBeUndefined();
    expect(res.headers['x-layout-loader']).toBeUndefined();
    expect(cookieOf(res)).toContain('p=1');
  });

  it('a middleware that swallows what next() threw does not run the rest of the chain a second time', async () => {
    const { app, logs } = createTestApp({}, {}, createRenderer([...routes, catchingRoute]));
    const before = catching.thrown;
    await request(app).get('/catching').expect(500);
    expect(catching.thrown).toBe(before + 1);
    expect(logs.failures()).toHaveLength(1);
  });

  it('the context carries the request id: the one the answer’s X-Request-Id names', async () => {
    const { app } = host();
    const res = await request(app).get('/guarded').set('x-let-in', 'Ada').expect(200);
    expect(res.text).toContain(`Ada ${res.headers['x-request-id'] as string}`);
  });
});

describe('a page module’s head exports', () => {
  it('links go into the head (a stylesheet with a precedence, so it loads before its page shows), handle reaches useMatches(), meta titles the page', async () => {
    const { app } = createTestApp({}, {}, createRenderer([...routes, exportsRoute]));
    const res = await request(app).get('/exports').expect(200);
    expect(res.text).toMatch(/<link rel="stylesheet" href="\/fixture-exports.css" data-precedence="route"\/>/);
    expect(res.text).toContain('<link rel="preconnect" href="https://cdn.example"/>');
    expect(res.text).toContain('<p data-testid="crumbs">Exports crumb</p>');
    expect(res.text).toContain('<title>Exports · Fixture</title>');
    expect(res.text).toContain('<meta name="description" content="A page of exports"/>');
    // The app's handle cannot replace the host's own keys: once loaded, the page is still a page, not a resource route.
    const again = await request(app).get('/exports').expect(200);
    expect(again.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('the demo’s sign-in, guarded page and sign-out', () => {
  it('without a session, /guestbook/mine redirects to sign-in and its loader never runs (no failure)', async () => {
    const { app, logs } = createTestApp();
    const res = await request(app).get('/guestbook/mine').expect(302);
    expect(res.headers.location).toBe('/guestbook/sign-in');
    expect(logs.failureCount()).toBe(0);
  });

  it('signing in with a name opens /guestbook/mine; signing out through the resource route clears the session with a 303', async () => {
    const { app } = createTestApp();
    const refused = await request(app).post('/guestbook/sign-in').type(FORM).send('name=').expect(422);
    expect(refused.text).toContain('Please enter a name');
    const signIn = await request(app).post('/guestbook/sign-in').type(FORM).send('name=Ada').expect(303);
    expect(signIn.headers.location).toBe('/guestbook/mine');
    const session = cookieOf(signIn);
    const mine = await request(app).get('/guestbook/mine').set('Cookie', session).expect(200);
    expect(mine.text).toContain('Signed in as <strong data-testid="signed-in-as">Ada</strong>');
    const signOut = await request(app).post('/guestbook/sign-out').set('Cookie', session).type(FORM).send('').expect(303);
    expect(signOut.headers.location).toBe('/guestbook');
    await request(app).get('/guestbook/mine').set('Cookie', cookieOf(signOut)).expect(302);
  });

  it('a form posts to the resource route through the data endpoint too: the redirect is data the browser follows', async () => {
    const { app } = createTestApp();
    const signIn = await request(app).post('/guestbook/sign-in').type(FORM).send('name=Ada').expect(303);
    const res = await request(app)
      .post('/_data/guestbook/sign-out?_routes=guestbook-sign-out')
      .set('Cookie', cookieOf(signIn))
      .type(FORM)
      .send('')
      .expect(200);
    expect(res.text).toBe('{"redirect":"/guestbook"}\n');
    // Its reads stay its own: not navigation data.
    await request(app).get('/_data/guestbook/sign-out?_routes=guestbook-sign-out').expect(404);
  });

  it('route discovery describes a resource route with an action, for forms to post to, and still none without one', async () => {
    const { app } = createTestApp();
    const build = /"build":"([^"]+)"/.exec((await request(app).get('/').expect(200)).text)![1]!;
    const signOut = await request(app).get(`/_routes/guestbook/sign-out?build=${build}`).expect(200);
    expect((signOut.body as { routes: RouteDescriptor[] }).routes).toEqual([
      expect.objectContaining({ id: 'guestbook-sign-out', resource: true, data: true, path: 'guestbook/sign-out' }),
    ]);
    expect((await request(app).get(`/_routes/api/guestbook?build=${build}`).expect(200)).body).toEqual({ routes: [] });
  });
});

describe('a route’s own ErrorBoundary', () => {
  it('an unknown entry is a 404 its route shows as “No such entry”, inside the site’s header, with no failure line', async () => {
    const { app, logs } = createTestApp();
    const res = await request(app).get('/guestbook/entries/no-such-id').expect(404);
    expect(res.text).toContain('data-testid="entry-missing"');
    expect(res.text).toContain('No such entry');
    expect(res.text).toContain('class="site-header"');
    expect(res.text).toContain('<meta name="robots" content="noindex"/>');
    expect(logs.failureCount()).toBe(0);
    const nav = await request(app).get('/_data/guestbook/entries/no-such-id?_routes=guestbook-entry').expect(404);
    expect(nav.text).toContain('"message":"No such entry"');
  });

  it('an entry that exists has its page, titled from its data by the page’s meta export', async () => {
    const { app } = createTestApp();
    await request(app).post('/guestbook').type(FORM).send('name=Grace&message=Hello there').expect(303);
    const api = await request(app).get('/api/guestbook').expect(200);
    const [entry] = (api.body as { entries: { id: string }[] }).entries;
    const res = await request(app).get(`/guestbook/entries/${entry!.id}`).expect(200);
    expect(res.text).toContain('<title>Grace · Guestbook</title>');
    expect(res.text).toContain('Hello there');
  });

  it('a page without a boundary of its own fails inside the site’s header with a way home, the digest its failure line has', async () => {
    // The site layout with one more page, whose loader throws (tests/fixtures/writes.server.ts).
    const [site, ...rest] = routes;
    const page = {
      id: 'site-child',
      path: 'site-child',
      page: () => import('../fixtures/Writes.tsx'),
      server: () => import('../fixtures/writes.server.ts'),
    };
    const { app, logs } = createTestApp({}, {}, createRenderer([{ ...site!, children: [...site!.children!, page] }, ...rest]));
    const res = await request(app).get('/site-child?do=throw').expect(500);
    expect(res.text).toContain('class="site-header"');
    expect(res.text).toMatch(/<a href="\/"[^>]*>Go to the home page<\/a>/);
    expect(logs.failures()).toHaveLength(1);
    expect(res.text).toContain(logs.failures()[0]!.digest);
  });
});
