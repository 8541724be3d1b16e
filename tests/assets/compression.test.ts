import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import express from 'express';
import { join } from 'node:path';
import { brotliDecompressSync, createBrotliDecompress, createGunzip, gunzipSync } from 'node:zlib';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { clientDir, createTestApp, listeningTestApp } from '../support/test-app.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';
import { compressResponses } from '../../server/assets/compress-responses.ts';

// What is compressed, how, and that compression never costs streaming. Built assets are
// compressed at build time and served as files; documents, navigation data and JSON errors on
// the fly, flushed as React writes. The fixture app's (tests/apps/host), built as production builds.

const ASSETS = join(clientDir(), 'assets');
// A script the build wrote compressed copies of (one too small to be worth them has none).
const builtScript = readdirSync(ASSETS).find((name) => name.endsWith('.js') && existsSync(join(ASSETS, `${name}.br`)))!;

/** A response as its bytes came, not decoded (client libraries decompress). */
function rawGet(base: string, path: string, headers: Record<string, string>, method = 'GET') {
  return new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('built assets', () => {
  const served = listeningTestApp();
  const path = `/assets/${builtScript}`;
  const plain = readFileSync(join(ASSETS, builtScript));

  it.each([
    ['br, gzip, deflate', 'br'],
    ['gzip, deflate, br;q=0.5', 'gzip'],
    ['gzip;q=0.5, br;q=0.5', 'br'], // a tie goes to the smaller
    ['*', 'br'],
    ['identity', undefined],
    ['br;q=0, gzip;q=0', undefined],
    ['deflate, compress', undefined],
    ['', undefined],
  ])('Accept-Encoding %j gets the %s file, with Vary, its own length and a year’s cache', async (accept, coding) => {
    const res = await rawGet(served.url, path, { 'Accept-Encoding': accept });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(coding);
    expect(res.headers.vary).toContain('Accept-Encoding');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    const decoded = coding === 'br' ? brotliDecompressSync(res.body) : coding === 'gzip' ? gunzipSync(res.body) : res.body;
    expect(decoded.equals(plain)).toBe(true);
    // The file the build wrote, sent as it is: not compressed again per request.
    if (coding !== undefined)
      expect(res.body.equals(readFileSync(join(ASSETS, `${builtScript}.${coding === 'br' ? 'br' : 'gz'}`)))).toBe(true);
  });

  it('answers 304 and HEAD per encoding, and a Range over the plain file', async () => {
    const first = await rawGet(served.url, path, { 'Accept-Encoding': 'br' });
    const again = await rawGet(served.url, path, { 'Accept-Encoding': 'br', 'If-None-Match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.headers.vary).toContain('Accept-Encoding');
    // Another representation has another validator: its ETag does not match.
    const other = await rawGet(served.url, path, { 'Accept-Encoding': 'gzip', 'If-None-Match': String(first.headers.etag) });
    expect(other.status).toBe(200);
    const head = await rawGet(served.url, path, { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
    expect(head.body.length).toBe(0);
    const range = await rawGet(served.url, path, { Range: 'bytes=0-9' });
    expect(range.status).toBe(206);
    expect(range.body.equals(plain.subarray(0, 10))).toBe(true);
  });
});

describe('documents and data', () => {
  it('a page is compressed as the client accepts, with Vary; HEAD has no body; the setting turns it off', async () => {
    const { app } = createTestApp();
    const br = await request(app).get('/fixture/ada').set('Accept-Encoding', 'br').expect(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(br.text).toContain('Hello from the fixture, ada');
    const gzip = await request(app).get('/').set('Accept-Encoding', 'gzip').expect(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const identity = await request(app).get('/').set('Accept-Encoding', 'identity').expect(200);
    expect(identity.headers['content-encoding']).toBeUndefined();
    const head = await request(app).head('/').set('Accept-Encoding', 'br').expect(200);
    expect(head.text).toBeFalsy();
    const json = await request(app).get('/api/readonly').set('Accept-Encoding', 'gzip').expect(200);
    expect(json.headers.vary).toContain('Accept-Encoding');
    const off = createTestApp({ COMPRESS_RESPONSES: 'false' });
    const plain = await request(off.app).get('/fixture/ada').set('Accept-Encoding', 'br, gzip').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const asset = await request(off.app).head(`/assets/${builtScript}`).set('Accept-Encoding', 'br').expect(200);
    expect(asset.headers['content-encoding']).toBe('br');
  });

  const plainHost = listeningTestApp();
  it.each([
    ['a page', '/', 200, true],
    ['a 404', '/no-such-page', 404, true],
    ['JSON', '/api/readonly', 200, true],
    // React Router's redirect has no body: nothing to encode, one answer for every client.
    ['a redirect', '/writes?do=redirect-with-cookies', 302, false],
    ['navigation data', '/fixture/ada.data', 200, true],
  ])('%s answered plain has the same Vary whether the client named no coding or one it refuses', async (_what, path, status, varies) => {
    // Without Accept-Encoding (or with only identity) `compression` is skipped; `gzip;q=0` goes
    // through it and is answered plain too: what a cache sees must not depend on which way it went.
    const refused = await rawGet(plainHost.url, path, { 'Accept-Encoding': 'gzip;q=0, br;q=0' });
    expect(refused.status).toBe(status);
    expect(refused.headers['content-encoding']).toBeUndefined();
    if (varies) expect(refused.headers.vary).toContain('Accept-Encoding');
    else expect((await rawGet(plainHost.url, path, { 'Accept-Encoding': 'br, gzip' })).headers.vary).toBe(refused.headers.vary);
    for (const headers of [{}, { 'Accept-Encoding': 'identity' }, { 'Accept-Encoding': '' }] as Record<string, string>[]) {
      const plain = await rawGet(plainHost.url, path, headers);
      expect(plain.status).toBe(status);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe(refused.headers.vary);
    }
  });

  it.each([
    ['an object', { 'Content-Type': 'text/html; charset=utf-8' }],
    ['a flat list', ['Content-Type', 'text/html; charset=utf-8']],
  ])('headers given to writeHead as %s count as set ones do: the same Vary either way', async (_form, given) => {
    const app = express();
    app.use(compressResponses({ maxConcurrent: 4 }));
    app.get('/', (_req, res) => void res.writeHead(200, given as OutgoingHttpHeaders).end('<p>page</p>'.repeat(200)));
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const refused = await rawGet(url, '/', { 'Accept-Encoding': 'gzip;q=0' });
      const plain = await rawGet(url, '/', {});
      expect(refused.headers.vary).toBe('Accept-Encoding');
      expect(plain.headers.vary).toBe(refused.headers.vary);
      expect(plain.headers['content-type']).toBe('text/html; charset=utf-8');
    } finally {
      server.close();
    }
  });

  const host = listeningTestApp();

  /** The decompressed text as it arrives; resolves once `until` is in it, while the response goes on. */
  function readUntil(path: string, coding: 'br' | 'gzip', until: string): Promise<{ text: string; res: IncomingMessage; close(): void }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        `${host.url}${path}`,
        { headers: { 'Accept-Encoding': coding, 'User-Agent': BROWSER_UA }, agent: false },
        (res) => {
          let text = '';
          const decoder = coding === 'br' ? createBrotliDecompress() : createGunzip();
          decoder.setEncoding('utf8').on('data', (chunk: string) => {
            text += chunk;
            if (text.includes(until)) resolve({ text, res, close: () => req.destroy() });
          });
          decoder.on('error', () => {});
          res.pipe(decoder);
          res.on('end', () => reject(new Error(`the response ended before "${until}": ${text.slice(0, 500)}`)));
        },
      );
      req.on('error', () => {});
      req.end();
    });
  }

  it.each(['br', 'gzip'] as const)(
    'a %s page streams: the shell decompresses while its loader’s promise is still pending',
    async (coding) => {
      // The fixture's streamed part is held for 4 s: the shell must come through long before.
      const { text, res, close } = await readUntil('/fixture/ada?hold=4000', coding, 'fixture fallback');
      expect(res.headers['content-encoding']).toBe(coding);
      expect(text).toContain('Hello from the fixture, ada');
      expect(text).not.toContain('LATER-PART-ARRIVED');
      close();
    },
  );

  /**
   * Megabytes, where a response says it is full past 16 KB: React has to stop and wait for drains
   * on the way.
   */
  const PAGE_PADDING = 2 * 1024 * 1024;

  it.each(['br', 'gzip', 'identity'] as const)(
    'a page of megabytes reaches a client that stops reading for a while, whole (%s)',
    async (coding) => {
      const body = await new Promise<Buffer>((resolve, reject) => {
        const req = httpRequest(
          `${host.url}/fixture/ada?pad=${PAGE_PADDING}`,
          { headers: { 'Accept-Encoding': coding, 'User-Agent': BROWSER_UA }, agent: false },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve(Buffer.concat(chunks)));
            res.pause();
            setTimeout(() => res.resume(), 500);
          },
        );
        req.on('error', reject);
        req.end();
      });
      const text = (coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body).toString();
      const start = text.indexOf('<p data-testid="padding">') + '<p data-testid="padding">'.length;
      expect(/^[0-9a-f]+$/.test(text.slice(start, start + PAGE_PADDING))).toBe(true);
      expect(text.slice(start + PAGE_PADDING).startsWith('</p>')).toBe(true);
      expect(text).toContain(`LATER-PART-ARRIVED 1: ${text.slice(start, start + PAGE_PADDING)}`);
      expect(text).toContain(`LATER-PART-ARRIVED 2: ${text.slice(start, start + PAGE_PADDING)}`);
      expect(text.endsWith('</body></html>')).toBe(true);
    },
  );

  it('navigation data streams compressed: its loader data arrives while a value is still pending', async () => {
    // React Router's single fetch (a turbo-stream): the loader's values first, a promise's when it settles.
    const { text, res, close } = await readUntil('/fixture/ada.data?hold=4000', 'br', 'Hello from the fixture, ada');
    expect(res.headers['content-encoding']).toBe('br');
    expect(text).not.toContain('LATER-PART-ARRIVED');
    close();
  });
});
