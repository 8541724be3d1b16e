import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchOnce, type Fetched } from '../../tools/harness/http.ts';
import { isAccessLine } from '../../shared/log-line.ts';
import { RUNTIME_GLOBAL, type RuntimeConfig } from '../../shared/runtime.ts';
import { createLogger } from '../../server/observe/logger.ts';
import { loadConfig } from '../../server/config/config.ts';
import { MANIFEST_FILE, PRERENDER_DIR, readPrerendered, type PrerenderManifest } from '../../server/pages/prerender-manifest.ts';
import { ServerLog } from '../../tools/harness/server-log.ts';
import { APP_BUILDS, createTestApp } from '../support/test-app.ts';
import { startServer, type RunningServer } from '../support/server.ts';

// The pages an app's build prerendered (the fixture app's /prerendered/fine, its
// react-router.config.ts), served by the built server from their files (docs/caching.md,
// "Prerendered pages").

const DIR = join(APP_BUILDS.host, PRERENDER_DIR);
const PAGE = '/prerendered/fine';
const manifest = () => JSON.parse(readFileSync(join(DIR, MANIFEST_FILE), 'utf8')) as PrerenderManifest;
const fileOf = (name: string) => readFileSync(join(DIR, name));
const get = (server: RunningServer, path: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetchOnce(`${server.url}${path}`, { headers, method });

/** The runtime configuration a document carries (shared/runtime.ts). */
function runtimeOf(html: string): RuntimeConfig {
  const json = new RegExp(`<script[^>]*>window\\.${RUNTIME_GLOBAL}=(.*?)</script>`).exec(html)![1]!;
  return JSON.parse(json) as RuntimeConfig;
}

/** The hash sources a browser computes for each inline script and style of a page (CSP3 §8.4). */
function inlineSources(html: string, tag: 'script' | 'style'): string[] {
  return [...html.matchAll(new RegExp(`<${tag}([^>]*)>([\\s\\S]*?)</${tag}>`, 'g'))]
    .filter(([, attributes]) => !/\ssrc=/.test(attributes!))
    .map(([, , text]) => `'sha256-${createHash('sha256').update(text!).digest('base64')}'`);
}

const directive = (res: Fetched, name: string) =>
  String(res.headers['content-security-policy'])
    .split(';')
    .find((part) => part.startsWith(`${name} `))!;

describe('a page prerendered at build', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ APP_BUILD: APP_BUILDS.host });
  });
  afterAll(() => server.stop());

  it('is answered from its file, the same bytes for everyone, with a strong ETag and never immutable', async () => {
    const page = manifest().pages[PAGE]!;
    const [first, second] = [await get(server, PAGE), await get(server, PAGE)];
    expect(first.status).toBe(200);
    expect(first.headers['x-cache']).toBe('PRERENDERED');
    expect(first.headers['cache-control']).toBe('public, no-cache');
    expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(first.headers.etag).toBe(page.document.codings.identity.etag);
    expect(first.headers.etag).toMatch(/^"[\w-]{22}"$/);
    expect(first.bytes.equals(fileOf(page.document.codings.identity.file))).toBe(true);
    expect(second.bytes.equals(first.bytes)).toBe(true);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(first.body).toContain('<h1>fine</h1>');
    const access = await server.logs.waitFor((line) => isAccessLine(line) && line.reqId === first.headers['x-request-id']);
    expect(access).toMatchObject({ route: 'page:routes/prerendered', status: 200, path: PAGE });
  });

  it('carries no per-request value: no nonce, no request id, no host name; its CSP lists the hashes of its inline scripts and styles', async () => {
    const res = await get(server, PAGE);
    expect(res.body).not.toMatch(/\snonce=/);
    expect(res.body).not.toContain('sentry-trace');
    expect(runtimeOf(res.body)).toMatchObject({ requestId: '', hostname: '' });
    expect(runtimeOf(res.body).sentry).toBeUndefined();
    const scripts = inlineSources(res.body, 'script');
    expect(scripts.length).toBeGreaterThan(0);
    expect(directive(res, 'script-src')).toBe(['script-src', "'self'", ...new Set(scripts)].join(' '));
    expect(directive(res, 'style-src')).toBe(['style-src', "'self'", ...new Set(inlineSources(res.body, 'style'))].join(' '));
    expect(String(res.headers['content-security-policy'])).not.toContain("'nonce-");
  });

  it('sends the copy compressed at build that the client accepts, never compressed again', async () => {
    const { document } = manifest().pages[PAGE]!;
    const identity = fileOf(document.codings.identity.file);
    for (const [accept, coding, decode] of [
      ['br, gzip', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const res = await get(server, PAGE, { 'accept-encoding': accept });
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.headers.etag).toBe(document.codings[coding]!.etag);
      expect(res.bytes.equals(fileOf(document.codings[coding]!.file))).toBe(true);
      expect(decode(res.bytes).equals(identity)).toBe(true);
      expect(res.bytes.length).toBeLessThan(identity.length);
    }
    const plain = await get(server, PAGE, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.equals(identity)).toBe(true);
  });

  it('answers If-None-Match with 304, HEAD with the headers alone, Range with 206 or 416', async () => {
    const etag = manifest().pages[PAGE]!.document.codings.identity.etag;
    const length = fileOf(manifest().pages[PAGE]!.document.codings.identity.file).length;
    const notModified = await get(server, PAGE, { 'if-none-match': `W/${etag}` });
    expect(notModified.status).toBe(304);
    expect(notModified.bytes.length).toBe(0);
    expect(notModified.headers.etag).toBe(etag);
    expect((await get(server, PAGE, { 'if-none-match': '"another"' })).status).toBe(200);
    const head = await get(server, PAGE, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(length));
    expect(head.bytes.length).toBe(0);
    const part = await get(server, PAGE, { range: 'bytes=10-19' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${length}`);
    expect(part.bytes.equals(fileOf(manifest().pages[PAGE]!.document.codings.identity.file).subarray(10, 20))).toBe(true);
    const stale = await get(server, PAGE, { range: 'bytes=10-19', 'if-range': '"an-old-release"' });
    expect(stale.status).toBe(200);
    expect(stale.bytes.length).toBe(length);
    const past = await get(server, PAGE, { range: `bytes=${length}-` });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${length}`);
    expect(past.headers['x-cache']).toBeUndefined();
  });

  it("serves its navigation data (React Router's single fetch) from the same render as the document", async () => {
    const page = manifest().pages[PAGE]!;
    // The one set of routes written: all the page's, which React Router's browser asks with no `_routes`.
    expect(Object.keys(page.data)).toEqual(['']);
    const res = await get(server, `${PAGE}.data`);
    expect(res.status).toBe(200);
    expect(res.headers['x-cache']).toBe('PRERENDERED');
    expect(res.headers['content-type']).toBe('text/x-script');
    expect(res.body).toContain('"routes/prerendered"');
    expect(res.body).toContain('"fine"');
    const access = await server.logs.waitFor((line) => isAccessLine(line) && line.reqId === res.headers['x-request-id']);
    expect(access).toMatchObject({ route: 'data:routes/prerendered', status: 200 });
  });

  it('leaves what was not prerendered to be rendered: another set of routes, a query, another method, other pages', async () => {
    const some = await get(server, `${PAGE}.data?_routes=routes/prerendered`);
    expect(some.status).toBe(200);
    expect(some.headers['x-cache']).toBeUndefined();
    const query = await get(server, `${PAGE}?tab=1`);
    expect(query.status).toBe(200);
    expect(query.headers['x-cache']).toBeUndefined();
    expect(query.headers['cache-control']).toBe('private, no-cache');
    expect(String(query.headers['content-security-policy'])).toContain("'nonce-");
    // The page has no action: a write is refused as it is on any such page.
    const post = await get(server, PAGE, { 'content-type': 'application/x-www-form-urlencoded' }, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect((await get(server, '/prerendered/other')).headers['x-cache']).toBeUndefined();
    expect((await get(server, '/prerendered/moved')).status).toBe(302);
    expect((await get(server, '/cached')).headers['x-cache']).toMatch(/^(MISS|HIT|STALE)$/);
    expect((await get(server, '/')).headers['x-cache']).toBeUndefined();
  });

  it('is answered to a visitor with a session or another language alike: it read neither', async () => {
    const res = await get(server, PAGE, { cookie: '__session=someone', 'accept-language': 'fr-FR' });
    expect(res.headers['x-cache']).toBe('PRERENDERED');
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('the prerendered pages of another build', () => {
  it('are not served: one warn line, and their paths are rendered per request', () => {
    const written = manifest();
    const logs = new ServerLog();
    const logger = createLogger(loadConfig({ LOG_LEVEL: 'info' }), logs);
    expect(readPrerendered(DIR, written.release, logger)).toEqual(written);
    expect(readPrerendered(DIR, { ...written.release, client: 'another' }, logger)).toBeUndefined();
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: `prerendered pages not served: ${DIR}/${MANIFEST_FILE} is from another build (run npm run build again)`,
      }),
    ]);
  });
});

describe('a prerendered file gone since start-up', () => {
  it('is one warn line, and the page is rendered as if it had not been prerendered', async () => {
    const written = manifest();
    const page = written.pages[PAGE]!;
    const identity = { ...page.document.codings.identity, file: 'removed-since-start-up.html' };
    const pages = { ...written.pages, [PAGE]: { ...page, document: { ...page.document, codings: { identity } } } };
    const host = createTestApp({}, { prerendered: { dir: DIR, manifest: { ...written, pages } } });
    try {
      const res = await fetchOnce(`${await host.listen()}${PAGE}`);
      expect(res.status).toBe(200);
      expect(res.headers['x-cache']).toBeUndefined();
      expect(res.body).toContain('<h1>fine</h1>');
      expect(host.logs.lines.filter((line) => line.msg === 'prerendered file unreadable: rendering the page')).toHaveLength(1);
    } finally {
      await host.close();
    }
  });
});
