import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { SERVER_DIGEST } from '../../shared/digest-proof.ts';
import { pageDigest, streamedDigest } from '../../tools/harness/digests.ts';
import { sentryServerSuite } from '../support/fake-sentry.ts';
import { fetchOnce } from '../../tools/harness/http.ts';
import { createTestApp, DIAG, DIAG_TOKEN } from '../support/test-app.ts';
import { BROWSER_UA, CRAWLER_UA } from '../../tools/harness/user-agents.ts';

const SECRETS = { cookie: 'session=secret-cookie-value', authorization: 'Bearer secret-bearer-value' };

function tags(event: Record<string, unknown>): Record<string, string> {
  return (event.tags ?? {}) as Record<string, string>;
}

describe('Sentry on the server (real SDK, fake ingest)', () => {
  const suite = sentryServerSuite({ SENTRY_TRACES_SAMPLE_RATE: '1.0', DIAGNOSTICS_TOKEN: DIAG_TOKEN, RELEASE: 'test-release' });
  const { sentry } = suite;

  /**
   * A later failure's event: the SDK queues events in the order they are captured, so once it
   * has arrived, every event of the requests made before it has been sent too.
   */
  async function barrier(): Promise<void> {
    const marker = await fetchOnce(`${suite.server.url}/_diag/api-error`, { headers: DIAG });
    const id = marker.headers['x-request-id'];
    await sentry.waitFor(() => (sentry.events().some((e) => tags(e).request_id === id) ? true : undefined));
  }

  /** Every event of one request, counted once nothing more of it can be on its way. */
  async function eventsOf(reqId: unknown): Promise<Record<string, unknown>[]> {
    await sentry.waitFor(() => (sentry.events().some((e) => tags(e).request_id === reqId) ? true : undefined));
    await barrier();
    return sentry.events().filter((e) => tags(e).request_id === reqId);
  }

  it.each([
    ['a render error before the shell', '/_diag/server-error', (body: string) => pageDigest(body)],
    ['a throwing JSON route', '/_diag/api-error', (body: string) => (JSON.parse(body) as { error: { digest: string } }).error.digest],
    ['a rejected handler promise', '/_diag/async-error', (body: string) => pageDigest(body)],
    ['an error inside Suspense after the shell', '/_diag/stream-error', (body: string) => streamedDigest(body)],
  ])('%s sends one event tagged with the digest of the page and the log line', async (_name, path, digestOf) => {
    const res = await fetchOnce(`${suite.server.url}${path}?token=secret-query-value`, {
      headers: { 'user-agent': BROWSER_UA, ...DIAG, ...SECRETS },
    });
    const digest = digestOf(res.body);
    expect(digest).toMatch(SERVER_DIGEST);
    const reqId = res.headers['x-request-id'];
    const events = await eventsOf(reqId);
    expect(events).toHaveLength(1);
    expect(tags(events[0]!)).toMatchObject({ digest, request_id: reqId });
    expect(events[0]).toMatchObject({ release: 'test-release', environment: 'production' });
    const logged = suite.server.logs.lines.filter((line) => line.reqId === reqId && line.error !== undefined);
    expect(logged.map((line) => line.digest)).toEqual([digest]);
  });

  it('10 identical failures in a row send 10 events, one per request, all under one fingerprint', async () => {
    const responses = [];
    for (let i = 0; i < 10; i++) responses.push(await fetchOnce(`${suite.server.url}/_diag/async-error`, { headers: DIAG }));
    const digests = new Set(responses.map((res) => pageDigest(res.body)));
    expect(digests.size).toBe(1);
    const [digest] = digests;
    const ids = new Set(responses.map((res) => res.headers['x-request-id']));
    const ours = () => sentry.events().filter((e) => ids.has(tags(e).request_id));
    await sentry.waitFor(() => (ours().length >= 10 ? true : undefined));
    await barrier();
    const events = ours();
    expect(events.every((e) => tags(e).digest === digest)).toBe(true);
    expect(events).toHaveLength(10);
    expect(new Set(events.map((e) => tags(e).request_id))).toEqual(ids);
    expect(new Set(events.map((e) => JSON.stringify(e.fingerprint)))).toEqual(new Set([JSON.stringify([digest])]));
    // Nothing was dropped as a duplicate on the way.
    expect(sentry.envelopes.map((e) => e.raw.toString('utf8')).join('\n')).not.toContain('event_processor');
  });

  it('sends nothing for a 404 or a bad request', async () => {
    const refused = [await fetchOnce(`${suite.server.url}/no-such-page`), await fetchOnce(`${suite.server.url}/%E0%A4%A`)];
    expect(refused.map((res) => res.status)).toEqual([404, 400]);
    await barrier();
    const ids = new Set(refused.map((res) => res.headers['x-request-id']));
    expect(sentry.events().filter((e) => ids.has(tags(e).request_id))).toEqual([]);
  });

  it('no event carries cookies, credentials, bodies or query strings', async () => {
    const failures = [];
    for (const path of ['/_diag/server-error', '/_diag/api-error', '/_diag/stream-error']) {
      failures.push(
        await fetchOnce(`${suite.server.url}${path}?token=secret-query-value`, {
          headers: { 'user-agent': BROWSER_UA, ...DIAG, ...SECRETS },
        }),
      );
    }
    for (const res of failures) expect(await eventsOf(res.headers['x-request-id'])).toHaveLength(1);
    const sent = sentry.envelopes.map((e) => e.raw.toString('utf8')).join('\n');
    expect(sent).not.toMatch(/secret-(cookie|bearer|query)-value/);
    expect(sent).not.toContain(DIAG_TOKEN);
  });

  it("writes the request span's trace into the page head, and the server transaction shares its trace id", async () => {
    const res = await fetchOnce(`${suite.server.url}/`, { headers: { 'user-agent': BROWSER_UA } });
    const traceId = /<meta name="sentry-trace" content="([0-9a-f]{32})-[0-9a-f]{16}(-[01])?"/.exec(res.body)?.[1];
    expect(traceId).toBeDefined();
    expect(res.body).toMatch(/<meta name="baggage" content="[^"]*sentry-trace_id=/);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    await sentry.waitFor(() => (sentry.traceIds().includes(traceId!) ? true : undefined));
  });

  // The tunnel relays what the browser sends (tests/telemetry/tunnel.test.ts); it is never traced itself.
  // Last here: the envelope it forwards is a browser's, which the tests above do not expect.
  it('forwards an envelope without sending a span for it, while pages are traced', async () => {
    const envelope = `${JSON.stringify({ dsn: sentry.dsn })}\n${JSON.stringify({ type: 'event' })}\n${JSON.stringify({ message: 'from-browser' })}\n`;
    const forwarded = await fetch(`${suite.server.url}/monitoring`, { method: 'POST', body: envelope });
    expect(forwarded.status).toBe(200);
    // A page request afterwards is traced; once its trace has arrived, the tunnel's would have too.
    const page = await fetchOnce(`${suite.server.url}/`, { headers: { 'user-agent': BROWSER_UA } });
    const traceId = /<meta name="sentry-trace" content="([0-9a-f]{32})/.exec(page.body)?.[1];
    await sentry.waitFor(() => (sentry.traceIds().includes(traceId!) ? true : undefined));
    const serverTelemetry = sentry.envelopes.filter((e) => !e.raw.includes('from-browser')).map((e) => e.raw.toString('utf8'));
    expect(serverTelemetry.join('\n')).not.toMatch(/\/monitoring|\/api\/1\/envelope/);
  });
});

describe('without SENTRY_DSN', () => {
  it('writes no Sentry settings or trace tags into the page and mounts no tunnel', async () => {
    const { app } = createTestApp();
    const page = await request(app).get('/').set('user-agent', CRAWLER_UA).expect(200);
    expect(page.text).not.toMatch(/sentry-trace|baggage|"sentry":|\/monitoring/);
    await request(app).post('/monitoring').send('x').expect(404);
  });
});
