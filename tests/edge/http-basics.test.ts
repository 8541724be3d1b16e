import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/test-app.ts';
import { LEVEL } from '../../shared/log-line.ts';
import { CRAWLER_UA } from '../../tools/harness/user-agents.ts';

describe('health endpoints', () => {
  it('answers /healthz and /readyz with 200 while serving', async () => {
    const { app } = createTestApp();
    await request(app).get('/healthz').expect(200, 'ok');
    await request(app).get('/readyz').expect(200, 'ready');
  });

  it('answers them as Express routes paths: any case, one trailing slash, a query', async () => {
    const { app } = createTestApp();
    for (const path of ['/healthz/', '/HEALTHZ', '/healthz?probe=1', '/healthz/?probe=1']) await request(app).get(path).expect(200, 'ok');
    for (const path of ['/readyz/', '/ReadyZ', '/readyz?probe=1']) await request(app).get(path).expect(200, 'ready');
  });

  it('answers /readyz with 503 while shutting down, closing the connection, and /healthz still 200', async () => {
    const { app } = createTestApp({}, { isShuttingDown: () => true });
    for (const method of ['get', 'head'] as const) {
      const ready = await request(app)[method]('/readyz').set('connection', 'keep-alive').expect(503);
      expect(ready.headers.connection).toBe('close');
    }
    await request(app).get('/healthz').expect(200);
  });

  it('keeps the connection of a ready /readyz open', async () => {
    const { app } = createTestApp();
    const ready = await request(app).get('/readyz').set('connection', 'keep-alive').expect(200);
    expect(ready.headers.connection).toBe('keep-alive');
  });

  it('never logs a health check at info', async () => {
    const { app, logs } = createTestApp({ LOG_LEVEL: 'info' });
    await request(app).get('/healthz').expect(200);
    await request(app).get('/readyz').expect(200);
    await request(app).get('/').set('user-agent', CRAWLER_UA).expect(200);
    const paths = logs.lines.map((line) => line.path);
    expect(paths).toEqual(['/']);
  });
});

/** What serve-static sends for the build's hashed files (server/assets/frontend.ts). */
const IMMUTABLE = 'public, max-age=31536000, immutable';

describe('caching and headers', () => {
  it('serves built assets as immutable for a year and a public page as private, no-cache', async () => {
    const { app } = createTestApp();
    const page = await request(app).get('/').set('user-agent', CRAWLER_UA).expect(200);
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(page.headers['x-powered-by']).toBeUndefined();
    // React Router's browser entry, which the page's module script starts.
    const entry = /<link rel="modulepreload" href="(\/assets\/entry\.client-[\w-]+\.js)"/.exec(page.text)?.[1];
    expect(entry).toBeDefined();
    const asset = await request(app).get(entry!).expect(200);
    expect(asset.headers['cache-control']).toBe(IMMUTABLE);
    expect(asset.headers['content-type']).toMatch(/javascript/);
  });

  // React Router writes the page's <link rel="modulepreload">s (its <Scripts/>) and stylesheet
  // links (<Links/>) from its own manifest: what the host guarantees is that each is there and
  // served from the build as immutable, so a repeat visit asks for none of them again.
  it('preloads every module the page imports, and links its stylesheet; each served immutable for a year', async () => {
    const { app } = createTestApp();
    const page = await request(app).get('/').set('user-agent', CRAWLER_UA).expect(200);
    const nonce = /'nonce-([^']+)'/.exec(page.headers['content-security-policy'] as string)?.[1];
    const preloads = [...page.text.matchAll(/<link rel="modulepreload" href="([^"]+)" nonce="([^"]+)"/g)].map((m) => [m[1]!, m[2]!]);
    expect(preloads.length).toBeGreaterThan(1);
    for (const [, preloadNonce] of preloads) expect(preloadNonce).toBe(nonce);
    // The route modules the page's module script imports are among them: none waits for another's import.
    const imported = [...page.text.matchAll(/import \* as \w+ from "([^"]+)"/g)].map((m) => m[1]!);
    expect(imported.length).toBeGreaterThan(0);
    expect(preloads.map(([href]) => href)).toEqual(expect.arrayContaining(imported));
    for (const [href] of preloads) {
      const asset = await request(app).get(href!).expect(200);
      expect({ href, cacheControl: asset.headers['cache-control'] }).toEqual({ href, cacheControl: IMMUTABLE });
    }
    const sheets = [...page.text.matchAll(/<link[^>]* rel="stylesheet" href="(\/assets\/[\w.-]+\.css)"/g)].map((m) => m[1]!);
    expect(sheets.length).toBeGreaterThan(0);
    for (const href of sheets) {
      const sheet = await request(app).get(href).expect(200);
      expect(sheet.headers['content-type']).toMatch(/text\/css/);
      expect(sheet.headers['cache-control']).toBe(IMMUTABLE);
    }
  });

  it('does not serve the Vite manifest or anything outside the assets folder', async () => {
    const { app } = createTestApp();
    await request(app).get('/.vite/manifest.json').expect(404);
    await request(app).get('/assets/../.vite/manifest.json').expect(404);
    await request(app).get('/assets/missing-file.js').expect(404);
  });
});

describe('request logging', () => {
  it('echoes a generated request id and logs it on the access line', async () => {
    const { app, logs } = createTestApp();
    const res = await request(app).get('/healthz').expect(200);
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(logs.access(id as string)).toMatchObject({ level: LEVEL.debug, status: 200 });
  });

  it("honours a trusted proxy's sane X-Request-Id and replaces one that is not (the whole class: tests/observe/request-id.test.ts)", async () => {
    const { app } = createTestApp({ TRUST_PROXY: 'loopback' });
    const sane = await request(app).get('/healthz').set('x-request-id', 'lb-7f3a.42');
    expect(sane.headers['x-request-id']).toBe('lb-7f3a.42');
    const forged = await request(app).get('/healthz').set('x-request-id', 'a"b\\nfake=1'.repeat(20));
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('writes no credentials and leaves the query string out of the log', async () => {
    const { app, logs } = createTestApp();
    const res = await request(app)
      .get('/?token=secret-in-query')
      .set('user-agent', CRAWLER_UA)
      .set('cookie', 'session=secret-cookie')
      .set('authorization', 'Bearer secret-bearer')
      .expect(200);
    const line = logs.access(res.headers['x-request-id'] as string)!;
    expect(line).toMatchObject({ level: LEVEL.info, path: '/' });
    expect(line.headers).toBeUndefined();
    expect(JSON.stringify(logs.lines)).not.toMatch(/secret-(in-query|cookie|bearer)/);
  });
});
