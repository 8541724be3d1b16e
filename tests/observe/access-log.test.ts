import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { isAccessLine, LEVEL, type LogLine } from '../../shared/log-line.ts';
import { createTestApp, DIAG } from '../support/test-app.ts';
import { BROWSER_UA, CRAWLER_UA } from '../../tools/harness/user-agents.ts';

// The access line is a contract (docs/logs.md, "The access line"): these are its fields, written
// here independently of the code so that a field added or renamed there fails here.
const PINO_FIELDS = ['level', 'time', 'release', 'replica', 'msg'];
const ALWAYS = ['reqId', 'method', 'path', 'route', 'status', 'durationMs', 'bytes', 'ip'];
const BROWSER = { 'user-agent': BROWSER_UA, accept: 'text/html' };
const BIG = 14 * 1024;

const fieldsOf = (line: LogLine | undefined) => Object.keys(line ?? {}).sort();
const expected = (...extra: string[]) => [...PINO_FIELDS, ...ALWAYS, ...extra].sort();
const idOf = (res: { headers: Record<string, unknown> }) => res.headers['x-request-id'] as string;

describe('the access line', () => {
  it('has exactly the documented fields, with the values of the request', async () => {
    const { app, logs } = createTestApp({ RELEASE: 'shop@1.4.0' });
    const res = await request(app)
      .get('/_diag/slow?ms=0&token=secret')
      // Uncompressed, so the bytes the connection carried can be compared with the body's length.
      .set({ ...BROWSER, ...DIAG, 'Accept-Encoding': 'identity' })
      .expect(200);
    const line = logs.access(idOf(res));
    expect(fieldsOf(line)).toEqual(expected('userAgent'));
    expect(line).toMatchObject({
      level: LEVEL.info,
      release: 'shop@1.4.0',
      msg: 'request completed',
      reqId: idOf(res),
      method: 'GET',
      path: '/_diag/slow',
      route: 'page:diag/slow',
      status: 200,
      ip: expect.stringMatching(/127\.0\.0\.1$/),
      userAgent: BROWSER['user-agent'],
    });
    expect(line!.durationMs).toBeGreaterThanOrEqual(0);
    // Headers and body, as the connection carried them: more than the body alone.
    expect(line!.bytes).toBeGreaterThan(res.text.length);
    expect(JSON.stringify(line).length).toBeLessThan(500);
  });

  it('adds the digest of a server failure, and the reason of a 4xx, and nothing else', async () => {
    const { app, logs } = createTestApp();
    const failed = await request(app)
      .get('/_diag/server-error')
      .set({ ...BROWSER, ...DIAG })
      .expect(500);
    expect(fieldsOf(logs.access(idOf(failed)))).toEqual(expected('userAgent', 'digest'));
    expect(logs.access(idOf(failed))!.digest).toBe(logs.failures(idOf(failed))[0]!.digest);

    const missing = await request(app).get('/no-such-page').set('user-agent', '').expect(404); // an empty one is left out
    expect(fieldsOf(logs.access(idOf(missing)))).toEqual(expected('reason'));
    expect(logs.access(idOf(missing))).toMatchObject({ status: 404, route: 'unmatched', reason: 'This page could not be found.' });
  });

  it('logs no request header unless allow-listed, and redacts credentials even then', async () => {
    const secrets = {
      cookie: 'session=secret-cookie',
      authorization: 'Bearer secret-bearer',
      'x-diagnostics-token': 'secret-token-0123456789',
    };
    const plain = createTestApp();
    await request(plain.app)
      .get('/no-such-page')
      .set({ ...secrets, referer: 'https://example.com/from', 'x-custom': 'custom-value' })
      .expect(404);
    const text = JSON.stringify(plain.logs.lines);
    expect(text).not.toMatch(/secret-|example\.com\/from|custom-value/);
    expect(plain.logs.accessLines()[0]!.headers).toBeUndefined();

    const listed = createTestApp({ LOG_REQUEST_HEADERS: 'Referer, cookie,authorization, x-diagnostics-token' });
    await request(listed.app)
      .get('/no-such-page')
      .set({ ...secrets, referer: 'https://example.com/from', 'x-custom': 'custom-value' })
      .expect(404);
    expect(listed.logs.accessLines()[0]!.headers).toEqual({
      referer: 'https://example.com/from',
      cookie: '[redacted]',
      authorization: '[redacted]',
      'x-diagnostics-token': '[redacted]',
    });
    expect(JSON.stringify(listed.logs.lines)).not.toMatch(/secret-|custom-value/);
  });

  it('writes no 14 KB header into any line, allow-listed or not, and cuts long paths and user agents', async () => {
    const { app, logs } = createTestApp({ LOG_REQUEST_HEADERS: 'referer' });
    const big = 'b'.repeat(BIG);
    await request(app).get('/no-such-page').set({ 'x-big': big }).expect(404);
    await request(app).get('/no-such-page').set({ referer: big }).expect(404);
    await request(app).get('/no-such-page').set({ 'user-agent': big }).expect(404);
    await request(app)
      .get(`/${'p'.repeat(8 * 1024)}`)
      .expect(404);
    const lines = logs.accessLines();
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      expect(JSON.stringify(line)).not.toContain('b'.repeat(1024));
      expect(JSON.stringify(line).length).toBeLessThan(2_000);
    }
    expect((lines[1]!.headers as Record<string, string>).referer).toMatch(/^b{256}…$/);
    expect(lines[2]!.userAgent).toMatch(/^b{256}…$/);
    expect(lines[3]!.path).toMatch(/^\/p{1023}…$/);
  });

  it('logs health checks and served assets at debug, and their failures at info', async () => {
    const { app, logs } = createTestApp();
    const page = await request(app).get('/').set('user-agent', CRAWLER_UA).expect(200);
    // Any built script the page names (React Router's entry and route modules, preloaded or imported).
    const script = /"(\/assets\/[^"]+\.js)"/.exec(page.text)![1]!;
    const asset = await request(app).get(script).expect(200);
    const health = await request(app).get('/healthz').expect(200);
    const missing = await request(app).get('/assets/missing-file.js').expect(404);
    expect(logs.access(idOf(asset))).toMatchObject({ level: LEVEL.debug, route: 'assets', status: 200 });
    expect(logs.access(idOf(health))).toMatchObject({ level: LEVEL.debug, status: 200 });
    expect(logs.access(idOf(missing))).toMatchObject({ level: LEVEL.info, status: 404 });
  });

  it('writes nothing at all for what the level filters out', async () => {
    const { app, logs } = createTestApp({ LOG_LEVEL: 'warn' });
    await request(app).get('/no-such-page').expect(404);
    await request(app).get('/healthz').expect(200);
    expect(logs.lines.filter(isAccessLine)).toEqual([]);
  });
});
