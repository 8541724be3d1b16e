import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { LEVEL } from '../../shared/log-line.ts';
import { parseServerDigest, SERVER_DIGEST } from '../../shared/digest-proof.ts';
import { streamedValue } from '../../tools/harness/digests.ts';
import { fetchOnce } from '../../tools/harness/http.ts';
import { createTestApp, DIAG, type TestApp } from '../support/test-app.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';

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
  it('writes one structured line at warn with the client digest and the page request id', async () => {
    const { app, logs } = createTestApp();
    const res = await request(app).post(PATH).send(REPORT).expect(204);
    const line = logs.lines.find((l) => l.msg === 'client error');
    expect(line).toMatchObject({
      level: LEVEL.warn,
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
});

describe('browser reports that name a server digest', () => {
  /** A real page whose Suspense boundary failed on the server: what React wrote, and the page's id. */
  async function failedBoundary(host: TestApp) {
    const page = await fetchOnce(`${host.url}/_diag/stream-error`, { headers: { 'user-agent': BROWSER_UA, ...DIAG } });
    const server = parseServerDigest(streamedValue(page.body));
    expect(server?.proof).toMatch(SERVER_DIGEST);
    return { ...server!, pageReqId: String(page.headers['x-request-id']) };
  }

  it('a genuine recovered-boundary report is logged under that digest, verified, at warn', async () => {
    const host = createTestApp();
    await host.listen();
    try {
      const { digest, proof, pageReqId } = await failedBoundary(host);
      await request(host.app)
        .post(PATH)
        .send({ ...REPORT, kind: 'recoverable', digest, proof, pageReqId })
        .expect(204);
      const line = host.logs.lines.find((l) => l.side === 'client');
      expect(line).toMatchObject({ level: LEVEL.warn, digest, verified: true, pageReqId, msg: 'client error' });
      expect(line).not.toHaveProperty('claimedDigest');
    } finally {
      await host.close();
    }
  });

  it.each([
    ['no proof', () => ({ proof: undefined, pageReqId: 'page-load-42' })],
    ['a made-up proof', () => ({ proof: 'AAAAAAAAAAAAAAAA', pageReqId: 'page-load-42' })],
    ['a genuine proof from another page', (real: { proof?: string }) => ({ proof: real.proof, pageReqId: 'another-page-load' })],
    ['a genuine proof and no page id', (real: { proof?: string }) => ({ proof: real.proof, pageReqId: undefined })],
  ])('a report with %s is logged as unverified, never under the digest', async (_name, forge) => {
    const host = createTestApp();
    await host.listen();
    try {
      const real = await failedBoundary(host);
      await request(host.app)
        .post(PATH)
        .send({ ...REPORT, kind: 'recoverable', digest: real.digest, ...forge(real) })
        .expect(204);
      const line = host.logs.lines.find((l) => l.side === 'client');
      expect(line).toMatchObject({ level: LEVEL.warn, claimedDigest: real.digest, verified: false });
      expect(line).not.toHaveProperty('digest');
    } finally {
      await host.close();
    }
  });
});

describe('client error report validation', () => {
  it.each([
    ['not an object', '[1,2]', /expected a JSON object/],
    ['a malformed digest', JSON.stringify({ ...REPORT, digest: '<script>' }), /malformed "digest"/],
    ['an unknown kind', JSON.stringify({ ...REPORT, kind: 'weird' }), /"kind" must be one of/],
    ['a missing message', JSON.stringify({ ...REPORT, message: undefined }), /"message" must be a string/],
    // A parse failure names the JSON (server/telemetry/client-errors.ts), never the parser's position or input.
    ['broken JSON', '{"kind":', /JSON/],
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
    const res = await request(app)
      .post(PATH)
      .send({ ...REPORT, stack: 'x'.repeat(20_000) })
      .expect(413);
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
