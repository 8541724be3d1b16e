import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_DIGEST } from '../shared/digest-proof.ts';
import { pageDigest, streamedDigest } from '../tools/harness/digests.ts';
import { FakeSentry } from './support/fake-sentry.ts';
import { fetchOnce } from '../tools/harness/http.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { createTestApp, DIAG, DIAG_TOKEN } from './support/test-app.ts';
import { BROWSER_UA, CRAWLER_UA } from '../tools/harness/user-agents.ts';

const WITH_SENTRY = ['node', '--import', './dist/server/instrument.js', 'dist/server/index.js'];
const SECRETS = { cookie: 'session=secret-cookie-value', authorization: 'Bearer secret-bearer-value' };

function tags(event: Record<string, unknown>): Record<string, string> {
  return (event.tags ?? {}) as Record<string, string>;
}

describe('Sentry on the server (real SDK, fake ingest)', () => {
  const sentry = new FakeSentry();
  let server: RunningServer;
  beforeAll(async () => {
    await sentry.start();
    server = await startServer(
      { SENTRY_DSN: sentry.dsn, SENTRY_TRACES_SAMPLE_RATE: '1.0', DIAGNOSTICS_TOKEN: DIAG_TOKEN, RELEASE: 'test-release' },
      WITH_SENTRY,
    );
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await sentry.stop();
  });

  /**
   * A later failure's event: the SDK queues events in the order they are captured, so once it
   * has arrived, every event of the requests made before it has been sent too.
   */
  async function barrier(): Promise<void> {
    const marker = await fetchOnce(`${server.url}/_diag/api-error`, { headers: DIAG });
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
    const res = await fetchOnce(`${server.url}${path}?token=secret-query-value`, {
      headers: { 'user-agent': BROWSER_UA, ...DIAG, ...SECRETS },
    });
    const digest = digestOf(res.body);
    expect(digest).toMatch(SERVER_DIGEST);
    const reqId = res.headers['x-request-id'];
    const events = await eventsOf(reqId);
    expect(events).toHaveLength(1);
    expect(tags(events[0]!)).toMatchObject({ digest, request_id: reqId });
    expect(events[0]).toMatchObject({ release: 'test-release', environment: 'production' });
    const logged = server.logs.lines.filter((line) => line.reqId === reqId && line.error !== undefined);
    expect(logged.map((line) => line.digest)).toEqual([digest]);
  });

  it('10 identical failures in a row send 10 events, one per request, all under one fingerprint', async () => {
    const responses = [];
    for (let i = 0; i < 10; i++) responses.push(await fetchOnce(`${server.url}/_diag/async-error`, { headers: DIAG }));
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
    const refused = [await fetchOnce(`${server.url}/no-such-page`), await fetchOnce(`${server.url}/%E0%A4%A`)];
    expect(refused.map((res) => res.status)).toEqual([404, 400]);
    await barrier();
    const ids = new Set(refused.map((res) => res.headers['x-request-id']));
    expect(sentry.events().filter((e) => ids.has(tags(e).request_id))).toEqual([]);
  });

  it('no event carries cookies, credentials, bodies or query strings', async () => {
    const failures = [];
    for (const path of ['/_diag/server-error', '/_diag/api-error', '/_diag/stream-error']) {
      failures.push(
        await fetchOnce(`${server.url}${path}?token=secret-query-value`, { headers: { 'user-agent': BROWSER_UA, ...DIAG, ...SECRETS } }),
      );
    }
    for (const res of failures) expect(await eventsOf(res.headers['x-request-id'])).toHaveLength(1);
    const sent = sentry.envelopes.map((e) => e.raw.toString('utf8')).join('\n');
    expect(sent).not.toMatch(/secret-(cookie|bearer|query)-value/);
    expect(sent).not.toContain(DIAG_TOKEN);
  });

  it("writes the request span's trace into the page head, and the server transaction shares its trace id", async () => {
    const res = await fetchOnce(`${server.url}/`, { headers: { 'user-agent': BROWSER_UA } });
    const traceId = /<meta name="sentry-trace" content="([0-9a-f]{32})-[0-9a-f]{16}(-[01])?"/.exec(res.body)?.[1];
    expect(traceId).toBeDefined();
    expect(res.body).toMatch(/<meta name="baggage" content="[^"]*sentry-trace_id=/);
    expect(res.headers['cache-control']).toBe('no-store');
    await sentry.waitFor(() => (sentry.traceIds().includes(traceId!) ? true : undefined));
  });
});

describe('incoming trace decisions', () => {
  const sentry = new FakeSentry();
  const servers: RunningServer[] = [];
  beforeAll(() => sentry.start());
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
    await sentry.stop();
  });

  /** Requests that claim an upstream sampled them (`-1`), then a graceful stop that flushes what the SDK holds. */
  async function forcedTraces(env: Record<string, string>): Promise<{ forced: string[]; sent: string[] }> {
    const server = await startServer(
      { SENTRY_DSN: sentry.dsn, SENTRY_TRACES_SAMPLE_RATE: '0', DIAGNOSTICS_TOKEN: DIAG_TOKEN, ...env },
      WITH_SENTRY,
    );
    servers.push(server);
    const forced: string[] = [];
    for (let i = 0; i < 20; i++) {
      const traceId = randomBytes(16).toString('hex');
      forced.push(traceId);
      const headers = {
        'sentry-trace': `${traceId}-${randomBytes(8).toString('hex')}-1`,
        baggage: `sentry-trace_id=${traceId},sentry-sampled=true,sentry-sample_rand=0.000001`,
      };
      await fetchOnce(`${server.url}/_diag/slow?ms=0`, { headers: { 'user-agent': BROWSER_UA, ...DIAG, ...headers } });
    }
    // A graceful stop flushes the SDK (server/sentry.ts): whatever it would send is sent by then.
    expect(await server.stop('SIGTERM')).toMatchObject({ code: 0 });
    return { forced, sent: sentry.traceIds().filter((id) => forced.includes(id)) };
  }

  it('a client that sends sentry-trace with sampled=1 gets no spans sent when the server samples at 0', async () => {
    const { sent } = await forcedTraces({});
    expect(sent).toEqual([]);
  });

  it('SENTRY_TRUST_UPSTREAM_SAMPLING=true follows the upstream decision (for an upstream that is yours)', async () => {
    const { forced, sent } = await forcedTraces({ SENTRY_TRUST_UPSTREAM_SAMPLING: 'true' });
    expect(sent.length).toBeGreaterThan(0);
    expect(forced).toEqual(expect.arrayContaining(sent));
  });
});

describe('the tunnel is not traced', () => {
  const sentry = new FakeSentry();
  let server: RunningServer;
  beforeAll(async () => {
    await sentry.start();
    server = await startServer({ SENTRY_DSN: sentry.dsn, SENTRY_TRACES_SAMPLE_RATE: '1.0' }, WITH_SENTRY);
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await sentry.stop();
  });

  it('forwards an envelope without sending a span for it, while pages are traced', async () => {
    const envelope = `${JSON.stringify({ dsn: sentry.dsn })}\n${JSON.stringify({ type: 'event' })}\n${JSON.stringify({ message: 'from-browser' })}\n`;
    const forwarded = await fetch(`${server.url}/monitoring`, { method: 'POST', body: envelope });
    expect(forwarded.status).toBe(200);
    // A page request afterwards is traced; once its trace has arrived, the tunnel's would have too.
    const page = await fetchOnce(`${server.url}/`, { headers: { 'user-agent': BROWSER_UA } });
    const traceId = /<meta name="sentry-trace" content="([0-9a-f]{32})/.exec(page.body)?.[1];
    await sentry.waitFor(() => (sentry.traceIds().includes(traceId!) ? true : undefined));
    const serverTelemetry = sentry.envelopes.filter((e) => !e.raw.includes('from-browser')).map((e) => e.raw.toString('utf8'));
    expect(serverTelemetry.join('\n')).not.toMatch(/\/monitoring|\/api\/1\/envelope/);
  });
});

describe('Sentry flushes before exit', () => {
  const sentry = new FakeSentry();
  let server: RunningServer | undefined;
  beforeAll(() => sentry.start());
  afterEach(() => server?.stop('SIGKILL'));
  afterAll(() => sentry.stop());

  it('SIGTERM right after a failure still delivers its event', async () => {
    server = await startServer({ SENTRY_DSN: sentry.dsn, DIAGNOSTICS_TOKEN: DIAG_TOKEN }, WITH_SENTRY);
    const res = await fetchOnce(`${server.url}/_diag/api-error`, { headers: DIAG });
    const digest = (JSON.parse(res.body) as { error: { digest: string } }).error.digest;
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    expect(sentry.events().filter((e) => tags(e).digest === digest)).toHaveLength(1);
  });

  it('a process fault is captured with its digest and flushed before the process exits', async () => {
    const fault = `process.on('SIGUSR2', () => { throw new Error('fault for sentry'); });`;
    server = await startServer({ SENTRY_DSN: sentry.dsn }, [
      'node',
      '--import',
      './dist/server/instrument.js',
      '--import',
      `data:text/javascript,${encodeURIComponent(fault)}`,
      'dist/server/index.js',
    ]);
    server.child.kill('SIGUSR2');
    expect((await server.exited).code).toBe(1);
    const fatal = server.logs.lines.find((line) => line.kind === 'uncaughtException');
    const events = sentry.events().filter((e) => tags(e).digest === fatal?.digest);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ level: 'fatal' });
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
