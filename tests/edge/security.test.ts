import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createHttpServer, SERVER_LIMITS } from '../../server/edge/http-server.ts';
import { serverErrorMessage } from '../../shared/messages.ts';
import { startServer } from '../support/server.ts';
import { createTestApp, DIAG } from '../support/test-app.ts';
import { CRAWLER_UA } from '../../tools/harness/user-agents.ts';
import { CSP_EXAMPLE_ENV, CSP_EXAMPLE_SOURCES } from '../support/csp-examples.ts';

const BOT = { 'user-agent': CRAWLER_UA };

function cspDirective(csp: string, name: string): string | undefined {
  return csp
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `));
}

describe('security headers', () => {
  it('sends a CSP whose per-request nonce is on every script React writes', async () => {
    const { app } = createTestApp();
    const first = await request(app).get('/').set(BOT).expect(200);
    const csp = first.headers['content-security-policy'] as string;
    const nonce = /'nonce-([^']+)'/.exec(cspDirective(csp, 'script-src') ?? '')?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    const scripts = [...first.text.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(1);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    const second = await request(app).get('/').set(BOT);
    expect(second.headers['content-security-policy']).not.toContain(nonce);
  });

  it("styles every error page within the CSP: the app's from its own origin, the host's inline with the nonce", async () => {
    const { app } = createTestApp();
    const styleNonce = (res: request.Response) =>
      /'nonce-([^']+)'/.exec(cspDirective(res.headers['content-security-policy'] as string, 'style-src') ?? '')?.[1];
    // The app's boundary: React Router links the stylesheets (<Links/>), from this origin ('self').
    const boundary = await request(app).get('/_diag/server-error').set(DIAG).expect(500);
    const sheets = [...boundary.text.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*>/g)].map((m) => m[0]);
    expect(sheets.length).toBeGreaterThan(0);
    for (const tag of sheets) expect(tag).toMatch(/href="\/assets\/[^"]+\.css"/);
    expect(boundary.text).not.toMatch(/<style(?![^>]*nonce="[^"]+")/);
    // The host's own page (a method no route has is its 404): its style inline, with the nonce.
    const hostPage = await request(app).options('/no-such-page').expect(404);
    expect(hostPage.text).toContain(`<style nonce="${styleNonce(hostPage)}">`);
  });

  it("adds the origins an app names (CSP_*) to their directives, and keeps the host's own sources and nonces", async () => {
    const plain = (await request(createTestApp().app).get('/').set(BOT)).headers['content-security-policy'] as string;
    const page = await request(createTestApp(CSP_EXAMPLE_ENV).app).get('/').set(BOT).expect(200);
    const csp = page.headers['content-security-policy'] as string;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    const app = CSP_EXAMPLE_SOURCES;
    // The host's sources first, each once: the example's img-src repeats 'self'.
    const directive = (name: string, ...sources: readonly string[]) => [name, ...new Set(sources)].join(' ');
    expect(cspDirective(csp, 'script-src')).toBe(directive('script-src', "'self'", `'nonce-${nonce}'`, ...app.scriptSrc));
    expect(cspDirective(csp, 'style-src')).toBe(directive('style-src', "'self'", `'nonce-${nonce}'`, ...app.styleSrc));
    expect(cspDirective(csp, 'img-src')).toBe(directive('img-src', "'self'", 'data:', ...app.imgSrc));
    expect(cspDirective(csp, 'connect-src')).toBe(directive('connect-src', "'self'", ...app.connectSrc));
    expect(cspDirective(csp, 'font-src')).toBe(directive('font-src', "'self'", ...app.fontSrc));
    expect(cspDirective(csp, 'frame-src')).toBe(directive('frame-src', "'self'", ...app.frameSrc));
    expect(cspDirective(csp, 'media-src')).toBe(directive('media-src', "'self'", ...app.mediaSrc));
    for (const name of ['default-src', 'style-src-attr', 'object-src', 'base-uri', 'form-action', 'frame-ancestors'])
      expect(cspDirective(csp, name)).toBe(cspDirective(plain, name));
    for (const [tag] of page.text.matchAll(/<script\b[^>]*>/g)) expect(tag).toContain(`nonce="${nonce}"`);
    // Unset, they add nothing: frame-src and media-src are default-src's 'self'.
    expect(cspDirective(plain, 'img-src')).toBe("img-src 'self' data:");
    expect([cspDirective(plain, 'frame-src'), cspDirective(plain, 'media-src')]).toEqual([undefined, undefined]);
  });

  it('forbids framing and sniffing, sets a referrer policy, and sends HSTS only when configured', async () => {
    const plain = await request(createTestApp().app).get('/api/nothing');
    const page = await request(createTestApp().app).get('/').set(BOT);
    expect(cspDirective(page.headers['content-security-policy'] as string, 'frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const hsts = await request(createTestApp({ HSTS_MAX_AGE: '31536000' }).app).get('/api/nothing');
    expect(hsts.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('trust proxy', () => {
  it('believes X-Forwarded-* only from a trusted proxy', async () => {
    const trusted = await request(createTestApp({ TRUST_PROXY: 'loopback' }).app)
      .get('/_diag/server-error')
      .set(DIAG)
      .set('x-forwarded-host', 'shop.example.com');
    expect(trusted.text).toContain(serverErrorMessage('shop.example.com'));
    const untrusted = await request(createTestApp().app).get('/_diag/server-error').set(DIAG).set('x-forwarded-host', 'shop.example.com');
    expect(untrusted.text).toContain(serverErrorMessage('127.0.0.1'));
  });

  it('logs the client address a trusted proxy reports, and the socket address otherwise', async () => {
    const trusted = createTestApp({ TRUST_PROXY: 'loopback' });
    const a = await request(trusted.app).get('/api/nothing').set('x-forwarded-for', '198.51.100.7');
    expect(trusted.logs.access(a.headers['x-request-id'] as string)).toMatchObject({ ip: '198.51.100.7' });
    const untrusted = createTestApp();
    const b = await request(untrusted.app).get('/api/nothing').set('x-forwarded-for', '198.51.100.7');
    expect(untrusted.logs.access(b.headers['x-request-id'] as string)).toMatchObject({ ip: expect.stringMatching(/127\.0\.0\.1/) });
  });
});

describe('server limits', () => {
  async function withServer(test: (port: number) => Promise<void>) {
    const server = createHttpServer(createTestApp().app, {
      ...SERVER_LIMITS,
      headersTimeoutMs: 300,
      requestTimeoutMs: 600,
      checkIntervalMs: 50,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await test((server.address() as AddressInfo).port);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }

  it('cuts off a client that sends its headers too slowly, with 408', async () => {
    await withServer(async (port) => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      // The server closes after its 408; a header line still trickling in then meets a reset.
      socket.on('error', () => {});
      socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n');
      const trickle = setInterval(() => socket.write('X-Slow: 1\r\n'), 100);
      await new Promise((resolve) => socket.on('close', resolve));
      clearInterval(trickle);
      expect(received).toMatch(/^HTTP\/1\.1 408/);
    });
  });

  it('answers headers over the size limit with 431', async () => {
    await withServer(async (port) => {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { 'x-big': 'a'.repeat(SERVER_LIMITS.maxHeaderBytes + 1) } });
      expect(res.status).toBe(431);
    });
  });
});

describe('rate-limit keys follow the proxy trust', () => {
  const PATH = '/api/client-errors';
  const REPORT = { kind: 'caught', digest: 'c-1a2b3c4d5e6f', type: 'TypeError', message: 'x', path: '/' };

  async function accepted(env: Record<string, string>, forwardedFor: (i: number) => string): Promise<number> {
    const { app } = createTestApp(env);
    let count = 0;
    for (let i = 0; i < 30; i++) {
      const res = await request(app).post(PATH).set('x-forwarded-for', forwardedFor(i)).send(REPORT);
      if (res.status === 204) count++;
    }
    return count;
  }

  it('a client cannot pick its key with X-Forwarded-For when no proxy is trusted', async () => {
    expect(await accepted({}, (i) => `198.51.100.${i}`)).toBe(10);
  });

  it('behind one trusted hop the key is the address that proxy appended, not what the client wrote', async () => {
    // The proxy appends the address it saw; whatever the client sent stays to its left.
    expect(await accepted({ TRUST_PROXY: '1' }, (i) => `198.51.100.${i}, 203.0.113.9`)).toBe(10);
    expect(await accepted({ TRUST_PROXY: 'loopback' }, (i) => `198.51.100.${i}, 203.0.113.9`)).toBe(10);
  });
});

describe('no library writes outside the JSON log', () => {
  it('forwarded headers from untrusted clients leave stderr empty and stdout all JSON', async () => {
    const server = await startServer({});
    try {
      const forwarded: Record<string, string>[] = [
        { 'x-forwarded-for': '198.51.100.7' },
        { forwarded: 'for=198.51.100.7' },
        { 'x-forwarded-for': 'not an address' },
      ];
      for (const headers of forwarded) {
        const res = await fetch(`${server.url}/api/client-errors`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ kind: 'caught', digest: 'c-1a2b3c4d5e6f', type: 'TypeError', message: 'x', path: '/' }),
        });
        expect(res.status).toBe(204);
      }
      await server.logs.waitFor(
        (line) => line.msg === 'client error' && server.logs.lines.filter((l) => l.msg === 'client error').length === 3,
      );
    } finally {
      await server.stop();
    }
    expect(server.stderr()).toBe('');
    expect(server.logs.notJson).toEqual([]);
  });

  it('a process warning becomes a warn line, not text on stderr', async () => {
    const warnOnSignal = `process.on('SIGUSR2', () => process.emitWarning('this API is old', 'DeprecationWarning'));`;
    const server = await startServer({}, [
      'node',
      '--import',
      `data:text/javascript,${encodeURIComponent(warnOnSignal)}`,
      'dist/server/index.js',
    ]);
    try {
      server.child.kill('SIGUSR2');
      const line = await server.logs.waitFor((l) => l.msg === 'node warning: DeprecationWarning');
      expect(line).toMatchObject({ level: 40, error: { type: 'DeprecationWarning', message: 'this API is old' } });
    } finally {
      await server.stop();
    }
    expect(server.stderr()).toBe('');
  });
});
