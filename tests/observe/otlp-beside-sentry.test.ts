import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_DIGEST } from '../../shared/digest-proof.ts';
import { pageDigest } from '../../tools/harness/digests.ts';
import { fetchOnce } from '../../tools/harness/http.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';
import { FakeSentry, WITH_SENTRY } from '../support/fake-sentry.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { APP_BUILDS, DIAG, DIAG_TOKEN } from '../support/test-app.ts';

// OTLP export and Sentry at once (server/telemetry/request-telemetry.ts): one tracer provider, the
// host's, sends each span to the collector and to Sentry's OTLP endpoint (server/telemetry/sentry-spans.ts),
// and Sentry's error events and the page's meta name the same trace. The collector's credentials
// (OTEL_EXPORTER_OTLP_HEADERS) go to the collector only. In the default protocol, protobuf, to
// both sinks (tests/support/otlp-protobuf.ts reads it); tests/observe/otlp-export.test.ts reads JSON.

const COLLECTOR_KEY = 'collector-secret-key';

describe('OTLP export beside Sentry', () => {
  let receiver: OtlpReceiver;
  let sentry: FakeSentry;
  let server: RunningServer;
  beforeAll(async () => {
    [receiver, sentry] = await Promise.all([startOtlpReceiver(), new FakeSentry().start()]);
    server = await startServer(
      {
        APP_BUILD: APP_BUILDS.host,
        SENTRY_DSN: sentry.dsn,
        DIAGNOSTICS_TOKEN: DIAG_TOKEN,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_HEADERS: `x-collector-key=${COLLECTOR_KEY}`,
        OTEL_BSP_SCHEDULE_DELAY: '50',
        OTEL_LOGS_EXPORTER: 'none',
      },
      WITH_SENTRY,
    );
  });
  afterAll(async () => {
    await server?.stop();
    await Promise.all([receiver?.close(), sentry?.stop()]);
  });

  const inSentry = (reqId: string) => sentry.otlp.flatMap(({ spans }) => spans).filter(isRequest(reqId));
  const isRequest = (reqId: string) => (span: ReceivedSpan) => span.attributes['react_ssr_host.request_id'] === reqId;

  it("sends each request's span once to each sink, and the page's meta names its trace for both", async () => {
    const res = await fetchOnce(`${server.url}/fixture`, { headers: { 'user-agent': BROWSER_UA } });
    const reqId = res.headers['x-request-id'] as string;
    const span = await receiver.spanOf(reqId);
    const sent = await sentry.waitFor(() => (inSentry(reqId).length > 0 ? inSentry(reqId) : undefined));
    // Both batches are out once the later one is: nothing more of this request is on its way.
    await fetchOnce(`${server.url}/fixture`).then((next) => receiver.spanOf(next.headers['x-request-id'] as string));
    expect(receiver.spans.filter(isRequest(reqId))).toHaveLength(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ traceId: span.traceId, spanId: span.spanId, name: span.name });

    const traceparent = /<meta name="traceparent" content="00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]">/.exec(res.body);
    expect(traceparent?.[1]).toBe(span.traceId);
    expect(res.body).toContain(`<meta name="sentry-trace" content="${span.traceId}-${traceparent?.[2]}-1">`);
    expect(res.body).toMatch(new RegExp(`<meta name="baggage" content="[^"]*sentry-trace_id=${span.traceId}`));
  });

  it("sends Sentry its key and not the collector's, and the collector its own, both in protobuf", async () => {
    await sentry.waitFor(() => sentry.otlp[0]);
    for (const { headers } of sentry.otlp) {
      expect(headers).toMatchObject({
        'x-sentry-auth': expect.stringMatching(/sentry_key=public/),
        'content-type': 'application/x-protobuf',
      });
      expect(JSON.stringify(headers)).not.toContain(COLLECTOR_KEY);
    }
    const collector = receiver.requests.filter((request) => request.path === '/v1/traces');
    expect(collector.length).toBeGreaterThan(0);
    for (const { headers } of collector)
      expect(headers).toMatchObject({ 'x-collector-key': COLLECTOR_KEY, 'content-type': 'application/x-protobuf' });
  });

  it("reports a failure once to Sentry under the trace its span is in, with the page's digest on both", async () => {
    const res = await fetchOnce(`${server.url}/_diag/server-error`, { headers: { ...DIAG, 'user-agent': BROWSER_UA } });
    expect(res.status).toBe(500);
    const reqId = res.headers['x-request-id'] as string;
    const digest = pageDigest(res.body);
    expect(digest).toMatch(SERVER_DIGEST);
    const span = await receiver.spanOf(reqId);
    expect(span).toMatchObject({ statusCode: 2, attributes: { 'react_ssr_host.digest': digest } });
    const event = await sentry.waitFor(() => sentry.events().find((e) => (e.tags as Record<string, string>).request_id === reqId));
    expect(event).toMatchObject({ tags: { digest }, contexts: { trace: { trace_id: span.traceId } } });
    expect(sentry.events().filter((e) => (e.tags as Record<string, string>).request_id === reqId)).toHaveLength(1);
  });

  it("puts a failure met in React's stream under its request's trace in Sentry too", async () => {
    const res = await fetchOnce(`${server.url}/_diag/stream-error`, { headers: { ...DIAG, 'user-agent': BROWSER_UA } });
    const reqId = res.headers['x-request-id'] as string;
    const span = await receiver.spanOf(reqId);
    const event = await sentry.waitFor(() => sentry.events().find((e) => (e.tags as Record<string, string>).request_id === reqId));
    expect(event).toMatchObject({ contexts: { trace: { trace_id: span.traceId } } });
  });

  it('traces no health probe and no relayed browser envelope, in either sink', async () => {
    // As the routes match them: any case, one trailing slash.
    for (const probe of ['/healthz', '/readyz', '/HEALTHZ/', '/readyz/'])
      expect((await fetchOnce(`${server.url}${probe}`)).status).toBe(200);
    await fetch(`${server.url}/monitoring`, { method: 'POST', body: `${JSON.stringify({ dsn: sentry.dsn })}\n` });
    // Spans are exported in the order they end: once a later request's has arrived, theirs would have.
    const later = await fetchOnce(`${server.url}/fixture`);
    await receiver.spanOf(later.headers['x-request-id'] as string);
    await sentry.waitFor(() => (inSentry(later.headers['x-request-id'] as string).length > 0 ? true : undefined));
    const paths = [...receiver.spans, ...sentry.otlp.flatMap(({ spans }) => spans)].map((span) => span.attributes['url.path']);
    expect(paths.filter((path) => /^\/(healthz|readyz|monitoring)\/?$/i.test(String(path)))).toEqual([]);
  });
});
