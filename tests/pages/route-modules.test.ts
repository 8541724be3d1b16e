import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { cachedFixture, catching, guardedCalls as calls } from '../support/fixture-state.ts';
import { createTestApp } from '../support/test-app.ts';

// Route modules with React Router framework mode's exports, over HTTP: middleware that guards
// the routes below it, `headers` merged parent to child, head exports, and a failure in the
// nearest boundary, over the fixture app (tests/apps/host/app/routes/guarded*.tsx, catching.ts,
// exports.tsx). The demo's sign-in and route boundaries are the demo's (tests/demo/sign-in.test.ts).

const cookieOf = (res: request.Response) =>
  ((res.headers['set-cookie'] as unknown as string[] | undefined) ?? []).map((c) => c.split(';')[0]!).join('; ');

describe('middleware and headers of route modules', () => {
  const host = () => createTestApp();

  it('a layout’s middleware redirects before any loader below it runs, on a document load and in navigation data', async () => {
    const { app } = host();
    const before = { ...calls };
    const page = await request(app).get('/guarded').expect(302);
    expect(page.headers.location).toBe('/fixture/denied');
    // React Router's single fetch carries the redirect as data the browser follows.
    const nav = await request(app).get('/guarded.data').expect(202);
    expect(nav.text).toContain('"SingleFetchRedirect"');
    expect(nav.text).toContain('"/fixture/denied"');
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
    const { app, logs } = createTestApp();
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
  it('links go into the head, handle reaches useMatches(), meta titles the page', async () => {
    const { app } = createTestApp();
    const res = await request(app).get('/exports').expect(200);
    const head = res.text.slice(0, res.text.indexOf('</head>'));
    expect(head).toMatch(/<link [^>]*rel="stylesheet" href="\/fixture-exports.css"\/>/);
    expect(head).toMatch(/<link [^>]*rel="preconnect" href="https:\/\/cdn.example"\/>/);
    expect(res.text).toContain('<p data-testid="crumbs">Exports crumb</p>');
    expect(res.text).toContain('<title>Exports · Fixture</title>');
    expect(res.text).toContain('<meta name="description" content="A page of exports"/>');
    // The app's handle cannot replace the host's own keys: once loaded, the page is still a page, not a resource route.
    const again = await request(app).get('/exports').expect(200);
    expect(again.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('a failure in a page without a boundary of its own', () => {
  it('shows in the nearest layout’s boundary, inside its header with a way home, with the digest its failure line has', async () => {
    // /cached has no ErrorBoundary; the site layout above it has (tests/apps/host/app/routes/site.tsx).
    const { app, logs } = createTestApp();
    cachedFixture.fail = true;
    try {
      const res = await request(app).get('/cached?boundary').expect(500);
      expect(res.text).toMatch(/<header data-testid="site-header"><a href="\/"/);
      expect(logs.failures()).toHaveLength(1);
      expect(res.text).toContain(logs.failures()[0]!.digest);
    } finally {
      cachedFixture.fail = false;
    }
  });
});
