import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isAccessLine } from '../../shared/log-line.ts';
import { fetchOnce } from '../../tools/harness/http.ts';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { APP_BUILDS, DIAG, DIAG_TOKEN } from '../support/test-app.ts';
import { closeContexts, openPage, sharedBrowser } from '../support/browser.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';
import { EXPORT_FAILED_MESSAGE } from '../../server/telemetry/export-failures.ts';

// Traces over OTLP (server/telemetry/otel.ts): the built server exports to a receiver the test
// runs, as OpenTelemetry's environment variables configure it, and each request arrives as one
// server span whose ids are those on its log lines. The proxy it trusts is 127.0.0.2 (a client
// sends from there with localAddress); any other address is a client whose traceparent is ignored.

const PROXY = '127.0.0.2';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const traceparent = (flags: string) => `00-${TRACE_ID}-${PARENT_ID}-${flags}`;

describe('OTLP export', () => {
  let receiver: OtlpReceiver;
  let server: RunningServer;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    server = await startServer({
      APP_BUILD: APP_BUILDS.host,
      TRUST_PROXY: PROXY,
      DIAGNOSTICS_TOKEN: DIAG_TOKEN,
      RELEASE: 'shop@1.2.3',
      REPLICA: 'replica-a',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'shop-frontend',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=staging',
      OTEL_BSP_SCHEDULE_DELAY: '50',
      OTEL_BLRP_SCHEDULE_DELAY: '50',
    });
  });
  afterAll(async () => {
    await closeContexts(await sharedBrowser());
    await server?.stop();
    await receiver?.close();
  });

  const accessLineOf = (reqId: string) => server.logs.waitFor((line) => line.reqId === reqId && isAccessLine(line));

  it("continues a trusted proxy's traceparent: one server span, its parent the proxy's, its trace on the access line", async () => {
    const res = await fetchOnce(`${server.url}/fixture`, { localAddress: PROXY, headers: { traceparent: traceparent('01') } });
    expect(res.status).toBe(200);
    const reqId = res.headers['x-request-id'] as string;
    const span = await receiver.spanOf(reqId);
    expect(span).toMatchObject({
      traceId: TRACE_ID,
      parentSpanId: PARENT_ID,
      kind: 2,
      name: `GET ${span.attributes['react_ssr_host.route']}`,
      attributes: { 'http.request.method': 'GET', 'url.path': '/fixture', 'http.response.status_code': 200 },
      statusCode: 0,
    });
    expect(await accessLineOf(reqId)).toMatchObject({ trace_id: TRACE_ID, trace_flags: '01' });
    expect(span.resource).toMatchObject({
      'service.name': 'shop-frontend',
      'service.version': 'shop@1.2.3',
      'service.instance.id': 'replica-a',
      'deployment.environment.name': 'staging',
    });
  });

  it("ignores anyone else's traceparent: a new trace, no parent", async () => {
    const res = await fetchOnce(`${server.url}/fixture`, { headers: { traceparent: traceparent('01') } });
    const span = await receiver.spanOf(res.headers['x-request-id'] as string);
    expect(span.traceId).not.toBe(TRACE_ID);
    expect(span.parentSpanId).toBeUndefined();
  });

  it("honours a trusted proxy's unsampled flag (parent-based by default): nothing exported, the ids still on the line", async () => {
    const res = await fetchOnce(`${server.url}/fixture`, { localAddress: PROXY, headers: { traceparent: traceparent('00') } });
    const reqId = res.headers['x-request-id'] as string;
    expect(await accessLineOf(reqId)).toMatchObject({ trace_id: TRACE_ID, trace_flags: '00' });
    await expect(receiver.spanOf(reqId, 500)).rejects.toThrow(/no span/);
  });

  it('marks a failure on its span: an error status, the digest of its failure line, and an exception event', async () => {
    const res = await fetchOnce(`${server.url}/_diag/server-error`, { headers: DIAG });
    expect(res.status).toBe(500);
    const reqId = res.headers['x-request-id'] as string;
    const span = await receiver.spanOf(reqId);
    const [failure] = server.logs.failures(reqId);
    expect(span).toMatchObject({
      statusCode: 2,
      attributes: { 'http.response.status_code': 500, 'react_ssr_host.digest': failure!.digest },
    });
    expect(span.events).toEqual([
      expect.objectContaining({ name: 'exception', attributes: expect.objectContaining({ 'exception.type': 'Error' }) }),
    ]);
    expect(failure).toMatchObject({ trace_id: span.traceId, span_id: span.spanId });
  });

  it("exports its lines as log records: the failure line's with the span's ids, its fields under the semantic conventions' names", async () => {
    const res = await fetchOnce(`${server.url}/_diag/server-error`, { headers: DIAG });
    const reqId = res.headers['x-request-id'] as string;
    const span = await receiver.spanOf(reqId);
    const [failure] = server.logs.failures(reqId);
    const record = await receiver.logWhere((log) => log.attributes['react_ssr_host.request_id'] === reqId && log.severityText === 'ERROR');
    expect(record).toMatchObject({
      body: failure!.msg,
      traceId: span.traceId,
      spanId: span.spanId,
      attributes: {
        'http.request.method': 'GET',
        'url.path': '/_diag/server-error',
        'http.response.status_code': 500,
        'react_ssr_host.digest': failure!.digest,
        'exception.type': 'Error',
      },
    });
    // The access line too, at INFO.
    await receiver.logWhere((log) => log.attributes['react_ssr_host.request_id'] === reqId && log.severityText === 'INFO');
  });

  it("spans each loader through React Router's instrumentation API and the document's streaming, children of the request's span; a failing loader is an error", async () => {
    const res = await fetchOnce(`${server.url}/fixture`);
    const request = await receiver.spanOf(res.headers['x-request-id'] as string);
    const loader = await receiver.spanWhere((span) => span.parentSpanId === request.spanId && span.name === 'loader routes/fixture');
    expect(loader).toMatchObject({ traceId: request.traceId, statusCode: 0, attributes: { 'react_router.route.id': 'routes/fixture' } });
    // The document's render and streaming, to its last byte: a span of its own, after the loader's.
    const document = await receiver.spanWhere((span) => span.parentSpanId === request.spanId && span.name === 'render document');
    expect(document.traceId).toBe(request.traceId);

    const failed = await fetchOnce(`${server.url}/_diag/loader-error`, { headers: DIAG });
    const failedRequest = await receiver.spanOf(failed.headers['x-request-id'] as string);
    const failedLoader = await receiver.spanWhere(
      (span) => span.parentSpanId === failedRequest.spanId && /^loader .*loader-error$/.test(span.name),
    );
    expect(failedLoader.statusCode).toBe(2);
  });

  /** The trace a page names in its head (server/render/document-head.ts): its trace id and span id. */
  const pageTrace = (body: string) => /<meta name="traceparent" content="00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]">/.exec(body)?.slice(1);

  it("names each answer's own trace in a stored page: the MISS and the HIT each carry their request's, never the renderer's", async () => {
    const answers = [];
    for (const expected of ['MISS', 'HIT']) {
      const res = await fetchOnce(`${server.url}/cached?trace=per-answer`, { headers: { 'user-agent': BROWSER_UA } });
      expect(res.headers['x-cache']).toBe(expected);
      const line = await accessLineOf(res.headers['x-request-id'] as string);
      expect(pageTrace(res.body)?.[0]).toBe(line.trace_id);
      answers.push(line.trace_id);
    }
    expect(answers[0]).not.toBe(answers[1]);
  });

  it("names a prerendered answer's trace in its Server-Timing: the bytes stay the build's", async () => {
    const res = await fetchOnce(`${server.url}/prerendered/fine`, { headers: { 'user-agent': BROWSER_UA } });
    expect(res.headers['x-cache']).toBe('PRERENDERED');
    const line = await accessLineOf(res.headers['x-request-id'] as string);
    expect(res.headers['server-timing']).toMatch(new RegExp(`^traceparent;desc="00-${String(line.trace_id)}-[0-9a-f]{16}-0[01]"$`));
    expect(pageTrace(res.body)).toBeUndefined();
  });

  it("joins a browser's failure to the trace that served its page: the report's line and log record carry the page's ids", async () => {
    const { page, close } = await openPage(await sharedBrowser(), DIAG);
    const response = await page.goto(`${server.url}/_diag/client-error`);
    const digest = await page.locator('code[data-digest]').innerText();
    const [traceId, spanId] = pageTrace(await response!.text())!;
    expect((await accessLineOf(response!.headers()['x-request-id']!)).trace_id).toBe(traceId);
    const report = await server.logs.waitFor((line) => line.msg === 'client error' && line.digest === digest);
    expect(report).toMatchObject({ side: 'client', trace_id: traceId, span_id: spanId });
    const record = await receiver.logWhere((log) => log.body === 'client error' && log.attributes['react_ssr_host.digest'] === digest);
    expect(record).toMatchObject({ traceId, spanId });
    await close();
  });

  it('takes no trace from a report that names none or a malformed one', async () => {
    for (const pageTraceparent of [undefined, '00-xyz-00f067aa0ba902b7-01', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`]) {
      const digest = `c-${Math.random().toString(36).slice(2, 10)}`;
      const body = JSON.stringify({ digest, kind: 'caught', type: 'Error', message: 'boom', path: '/x', pageTraceparent });
      const res = await fetch(`${server.url}/api/client-errors`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(res.status).toBe(204);
      const line = await server.logs.waitFor((l) => l.msg === 'client error' && l.digest === digest);
      expect(line.trace_id).toBeUndefined();
    }
  });

  // Last: the window this opens holds every later failure of this server to one line a minute.
  it('says on the log that an export failed, one line for many failed batches, and exports again once the collector takes them', async () => {
    receiver.refusing = true;
    const before = receiver.requests.length;
    for (let i = 0; i < 3; i++) {
      await fetchOnce(`${server.url}/fixture`);
      // More than one batch: each waits OTEL_BSP_SCHEDULE_DELAY (50 ms) at most.
      await new Promise((resolve) => setTimeout(resolve, 120));
    }
    const exportFailed = (line: { msg?: string }) => line.msg === EXPORT_FAILED_MESSAGE;
    const said = await server.logs.waitFor(exportFailed);
    // Several batches refused (spans' and records'), each handed to the handler as it failed.
    await vi.waitFor(() => expect(receiver.requests.length - before).toBeGreaterThanOrEqual(4));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(said).toMatchObject({ level: 40, failedBatches: 1, exportError: 'Bad Request' });
    expect(server.logs.lines.filter(exportFailed)).toHaveLength(1);
    receiver.refusing = false;
    const res = await fetchOnce(`${server.url}/fixture`);
    await receiver.spanOf(res.headers['x-request-id'] as string);
  });
});
