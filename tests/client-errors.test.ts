import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { LEVEL } from './support/logs.ts';
import { createTestApp } from './support/test-app.ts';

const PATH = '/api/client-errors';
const REPORT = {
  kind: 'caught',
  digest: 'c-1a2b3c4d5e6f',
  type: 'TypeError',
  message: 'x is undefined',
  stack: 'TypeError: x is undefined\n    at Widget (http://localhost/assets/entry-client.js:1:100)',
  path: '/checkout?email=someone@example.com',
  pageReqId: 'page-load-42',
};

describe('client error reports (no Sentry)', () => {
  it('writes one structured error line with the client digest and the page request id', async () => {
    const { app, logs } = createTestApp();
    const res = await request(app).post(PATH).send(REPORT).expect(204);
    const line = logs.lines.find((l) => l.msg === 'client error');
    expect(line).toMatchObject({
      level: LEVEL.error,
      side: 'client',
      digest: REPORT.digest,
      kind: 'caught',
      reqId: res.headers['x-request-id'],
      pageReqId: 'page-load-42',
      path: '/checkout',
      error: { type: 'TypeError', message: 'x is undefined', stack: REPORT.stack },
    });
    expect(JSON.stringify(logs.lines)).not.toContain('someone@example.com');
  });

  it('logs a recovered server digest at warn', async () => {
    const { app, logs } = createTestApp();
    await request(app).post(PATH).send({ ...REPORT, kind: 'recoverable', digest: 'Z_SFgsXNXpTodHa_' }).expect(204);
    expect(logs.lines.find((l) => l.msg === 'client error')).toMatchObject({ level: LEVEL.warn, digest: 'Z_SFgsXNXpTodHa_' });
  });

  it.each([
    ['not an object', '[1,2]', /expected a JSON object/],
    ['a malformed digest', JSON.stringify({ ...REPORT, digest: '<script>' }), /malformed "digest"/],
    ['an unknown kind', JSON.stringify({ ...REPORT, kind: 'weird' }), /"kind" must be one of/],
    ['a missing message', JSON.stringify({ ...REPORT, message: undefined }), /"message" must be a string/],
    ['broken JSON', '{"kind":', /./],
  ])('rejects %s with a JSON 400 and writes no client error line', async (_name, body, message) => {
    const { app, logs } = createTestApp();
    const res = await request(app).post(PATH).set('content-type', 'application/json').send(body).expect(400);
    expect(res.body.error.status).toBe(400);
    expect(res.body.error.message).toMatch(message);
    expect(res.text).not.toMatch(/\bat \w+ \(|node_modules/);
    expect(logs.lines.some((l) => l.msg === 'client error')).toBe(false);
  });

  it('rejects a body over 16 KiB with 413', async () => {
    const { app } = createTestApp();
    const res = await request(app).post(PATH).send({ ...REPORT, stack: 'x'.repeat(20_000) }).expect(413);
    expect(res.body.error).toMatchObject({ status: 413 });
  });

  it('answers a GET with 405 and Allow: POST', async () => {
    const res = await request(createTestApp().app).get(PATH).expect(405);
    expect(res.headers.allow).toBe('POST');
  });

  it('limits a client to 10 reports a minute with 429 and Retry-After', async () => {
    const { app, logs } = createTestApp();
    for (let i = 0; i < 10; i++) await request(app).post(PATH).send(REPORT).expect(204);
    const res = await request(app).post(PATH).send(REPORT).expect(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body.error.status).toBe(429);
    expect(logs.lines.filter((l) => l.msg === 'client error')).toHaveLength(10);
  });
});
