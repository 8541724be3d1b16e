import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeSentry } from '../support/fake-sentry.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const TUNNEL = '/monitoring';
/** An envelope with an event item and a binary attachment (bytes that are not valid UTF-8). */
function envelope(dsn: string, binary = Buffer.from([0x00, 0xff, 0xfe, 0x0a, 0x80, 0x81])): Buffer {
  const event = Buffer.from(JSON.stringify({ event_id: 'a'.repeat(32), message: 'hello' }));
  return Buffer.concat([
    Buffer.from(`${JSON.stringify({ event_id: 'a'.repeat(32), dsn })}\n`),
    Buffer.from(`${JSON.stringify({ type: 'event', length: event.length })}\n`),
    event,
    Buffer.from(`\n${JSON.stringify({ type: 'attachment', length: binary.length, filename: 'x.bin' })}\n`),
    binary,
    Buffer.from('\n'),
  ]);
}

function post(app: TestApp['app'], body: Buffer | string, ip = '203.0.113.1') {
  return request(app).post(TUNNEL).set('content-type', 'text/plain;charset=UTF-8').set('x-forwarded-for', ip).send(body);
}

describe('the Sentry tunnel', () => {
  const sentry = new FakeSentry();
  let host: TestApp;
  beforeAll(async () => {
    await sentry.start();
    host = createTestApp({ SENTRY_DSN: sentry.dsn, SENTRY_TUNNEL_TIMEOUT_MS: '300', TRUST_PROXY: 'loopback' });
  });
  beforeEach(() => {
    sentry.mode = { kind: 'ok' };
    sentry.envelopes.length = 0;
  });
  afterAll(() => sentry.stop());

  it('forwards an envelope for the configured DSN byte for byte, binary item included', async () => {
    const body = envelope(sentry.dsn);
    const res = await post(host.app, body, '203.0.113.10').expect(200);
    expect(res.body).toEqual({ id: 'ok' });
    expect(sentry.envelopes).toHaveLength(1);
    expect(sentry.envelopes[0]!.path).toBe('/api/1/envelope/');
    expect(sentry.envelopes[0]!.raw.equals(body)).toBe(true);
    expect(sentry.envelopes[0]!.items[1]!.payload.equals(Buffer.from([0x00, 0xff, 0xfe, 0x0a, 0x80, 0x81]))).toBe(true);
  });

  it('refuses a foreign DSN with 403 and forwards nothing', async () => {
    const res = await post(host.app, envelope('https://key@evil.example.com/42'), '203.0.113.11').expect(403);
    expect(res.body.error.status).toBe(403);
    expect(sentry.envelopes).toHaveLength(0);
  });

  it.each([
    ['garbage', 'this is not an envelope'],
    ['a header without dsn', '{"event_id":"x"}\n{"type":"event"}\n{}'],
    ['an empty body', ''],
  ])('answers %s with 400', async (_name, body) => {
    await post(host.app, body, '203.0.113.12').expect(400);
    expect(sentry.envelopes).toHaveLength(0);
  });

  it('answers an envelope over 1 MiB with 413', async () => {
    await post(host.app, envelope(sentry.dsn, Buffer.alloc(1024 * 1024 + 1)), '203.0.113.13').expect(413);
    expect(sentry.envelopes).toHaveLength(0);
  });

  it("passes Sentry's 429, Retry-After and X-Sentry-Rate-Limits back to the browser", async () => {
    sentry.mode = { kind: 'rate-limited', retryAfter: '60', limits: '60:error:organization' };
    const res = await post(host.app, envelope(sentry.dsn), '203.0.113.14').expect(429);
    expect(res.headers['retry-after']).toBe('60');
    expect(res.headers['x-sentry-rate-limits']).toBe('60:error:organization');
  });

  it('answers 504 when Sentry does not answer in time', async () => {
    sentry.mode = { kind: 'hang' };
    const res = await post(host.app, envelope(sentry.dsn), '203.0.113.15').expect(504);
    expect(res.body.error.message).toBe('Gateway Timeout');
  });

  it('does not follow a redirect from upstream', async () => {
    sentry.mode = { kind: 'redirect' };
    await post(host.app, envelope(sentry.dsn), '203.0.113.16').expect(502);
  });

  it('answers GET with 405 and Allow: POST', async () => {
    const res = await request(host.app).get(TUNNEL).expect(405);
    expect(res.headers.allow).toBe('POST');
  });

  it('limits each client with 429 and Retry-After, without affecting others', async () => {
    let limited: request.Response | undefined;
    for (let i = 0; i < 61 && !limited; i++) {
      const res = await post(host.app, envelope(sentry.dsn), '203.0.113.99');
      if (res.status === 429) limited = res;
    }
    expect(limited?.headers['retry-after']).toMatch(/^\d+$/);
    await post(host.app, envelope(sentry.dsn), '203.0.113.100').expect(200);
  });

  it('never logs an envelope body', async () => {
    await post(host.app, envelope(sentry.dsn).toString('latin1').replace('hello', 'secret-payload'), '203.0.113.17');
    expect(JSON.stringify(host.logs.lines)).not.toContain('secret-payload');
  });
});
