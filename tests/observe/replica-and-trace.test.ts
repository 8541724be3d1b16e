import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { FAILURE_MESSAGE, isAccessLine, type LogLine, type TraceContext } from '../../shared/log-line.ts';
import { sentryServerSuite } from '../support/fake-sentry.ts';
import type { RunningServer } from '../support/server.ts';
import { loadConfig } from '../../server/config/config.ts';
import { createTestApp, DIAG, DIAG_TOKEN } from '../support/test-app.ts';
import { fetchOnce } from '../../tools/harness/http.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';

// Lines gathered from many replicas say whose they are, and with tracing on which trace they
// belong to (docs/logs.md). The access line's growth is bounded: 60 bytes without tracing,
// 120 with it, whatever the replica's name (server/config/config-values.ts, MAX_REPLICA_LENGTH).

const LONGEST_REPLICA = 'r'.repeat(42);
const TRACE: TraceContext = { trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: 'b7ad6b7169203331', trace_flags: '01' };
const fakeTracing = { telemetry: { report: () => {}, traceMeta: () => undefined, traceContext: () => TRACE } };
const idOf = (res: { headers: Record<string, unknown> }) => res.headers['x-request-id'] as string;

/** What the fields added for the fleet cost this line, in bytes: the line as written, less the line without them. */
function addedBytes(raw: string): number {
  const { replica: _r, trace_id: _t, trace_flags: _f, ...before } = JSON.parse(raw) as LogLine;
  return Buffer.byteLength(raw) - Buffer.byteLength(JSON.stringify(before));
}

/** The first line the probe finds, as the spawned server writes them. */
const lineOf = (server: RunningServer, probe: (line: LogLine) => boolean) =>
  vi.waitFor(() => {
    const line = server.logs.lines.find(probe);
    if (line === undefined) throw new Error('not logged yet');
    return line;
  });

const rawAccess = (raw: readonly string[], reqId: string) =>
  raw.find((text) => text.includes(reqId) && isAccessLine(JSON.parse(text) as LogLine))!;

describe('the replica on every line', () => {
  it("names the replica by the pod's or host's name when REPLICA is unset, keeping the unique end of a long one", () => {
    expect(loadConfig({ HOSTNAME: 'react-ssr-host-7d9f8b6c5d-x2k4q' }).replica).toBe('react-ssr-host-7d9f8b6c5d-x2k4q');
    const long = `a-very-long-deployment-name-for-the-shop-frontend-7d9f8b6c5d-x2k4q`;
    expect(loadConfig({ HOSTNAME: long }).replica).toBe(long.slice(-42));
    expect(loadConfig({ HOSTNAME: long }).replica).toMatch(/-x2k4q$/);
    expect(loadConfig({ HOSTNAME: 'odd name"\\' }).replica).toBe('odd-name--');
  });

  it('names the replica on the access line, the failure line and the lines outside requests', async () => {
    const { app, logs } = createTestApp({ REPLICA: 'web-2' });
    const res = await request(app).get('/_diag/server-error').set(DIAG).expect(500);
    expect(logs.access(idOf(res))).toMatchObject({ replica: 'web-2' });
    expect(logs.lines.find((line) => line.msg === FAILURE_MESSAGE)).toMatchObject({ replica: 'web-2', reqId: idOf(res) });
    expect(logs.lines.every((line) => line.replica === 'web-2')).toBe(true);
  });

  it('grows the access line by at most 60 bytes with the longest replica name, and carries no trace without tracing', async () => {
    const { app, logs } = createTestApp({ REPLICA: LONGEST_REPLICA });
    const res = await request(app).get('/fixture/plain').set('user-agent', BROWSER_UA).expect(200);
    const raw = rawAccess(logs.raw, idOf(res));
    expect(JSON.parse(raw)).not.toHaveProperty('trace_id');
    expect(addedBytes(raw)).toBe(55);
  });
});

describe('the trace on a request’s lines, with tracing on', () => {
  it('puts trace_id and trace_flags on the access line (at most 120 bytes more) and the whole context on the failure line', async () => {
    const { app, logs } = createTestApp({ REPLICA: LONGEST_REPLICA }, fakeTracing);
    const page = await request(app).get('/fixture/plain').set('user-agent', BROWSER_UA).expect(200);
    const raw = rawAccess(logs.raw, idOf(page));
    expect(JSON.parse(raw)).toMatchObject({ trace_id: TRACE.trace_id, trace_flags: '01' });
    expect(JSON.parse(raw)).not.toHaveProperty('span_id');
    expect(addedBytes(raw)).toBeLessThanOrEqual(120);

    const failed = await request(app).get('/_diag/server-error').set(DIAG).expect(500);
    const failure = logs.lines.find((line) => line.msg === FAILURE_MESSAGE && line.reqId === idOf(failed));
    expect(failure).toMatchObject(TRACE);
  });
});

describe('with Sentry tracing', () => {
  const suite = sentryServerSuite({ SENTRY_TRACES_SAMPLE_RATE: '1', DIAGNOSTICS_TOKEN: DIAG_TOKEN, REPLICA: 'web-1' });
  const { sentry } = suite;

  it('logs the trace id Sentry records for the failure, so a digest leads to its trace', async () => {
    const res = await fetchOnce(`${suite.server.url}/_diag/server-error`, { headers: { 'user-agent': BROWSER_UA, ...DIAG } });
    const reqId = res.headers['x-request-id'] as string;
    const failure = await lineOf(suite.server, (line) => line.msg === FAILURE_MESSAGE && line.reqId === reqId);
    expect(failure).toMatchObject({
      replica: 'web-1',
      trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
      trace_flags: '01',
    });
    const access = await lineOf(suite.server, (line) => isAccessLine(line) && line.reqId === reqId);
    expect(access.trace_id).toBe(failure.trace_id);
    const event = await sentry.waitFor(() => sentry.events().find((e) => (e.tags as Record<string, string>)?.request_id === reqId));
    expect((event.contexts as { trace: { trace_id: string } }).trace.trace_id).toBe(failure.trace_id);
  });
});

describe('a W3C traceparent, with tracing and export off', () => {
  const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  const traced = (app: ReturnType<typeof createTestApp>['app'], path: string, value: string) =>
    request(app).get(path).set(DIAG).set('user-agent', BROWSER_UA).set('traceparent', value);

  it("from a proxy TRUST_PROXY trusts: its trace id is on the access line and the failure line, with no span of the host's", async () => {
    const { app, logs } = createTestApp({ TRUST_PROXY: 'loopback' });
    const page = await traced(app, '/fixture/plain', TRACEPARENT).expect(200);
    expect(logs.access(idOf(page))).toMatchObject({ trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', trace_flags: '01' });
    const failed = await traced(app, '/_diag/server-error', TRACEPARENT).expect(500);
    const failure = logs.lines.find((line) => line.msg === FAILURE_MESSAGE && line.reqId === idOf(failed));
    expect(failure).toMatchObject({ trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', trace_flags: '01' });
    expect(failure).not.toHaveProperty('span_id');
  });

  it('from any other client, or malformed, is ignored: a client does not choose which trace its lines join', async () => {
    const untrusted = createTestApp();
    const page = await traced(untrusted.app, '/fixture/plain', TRACEPARENT).expect(200);
    expect(untrusted.logs.access(idOf(page))).not.toHaveProperty('trace_id');

    const { app, logs } = createTestApp({ TRUST_PROXY: 'loopback' });
    for (const bad of [
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01', // an all-zero trace id
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01', // an all-zero parent
      'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', // the invalid version
      '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01', // upper case
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra', // version 00 has four fields
      '00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01', // a short trace id
      `${TRACEPARENT}, ${TRACEPARENT}`, // sent twice
    ]) {
      const res = await traced(app, '/fixture/plain', bad).expect(200);
      expect(logs.access(idOf(res)), bad).not.toHaveProperty('trace_id');
    }
    // A later version may add fields: its first four are read.
    const later = await traced(app, '/fixture/plain', '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-more').expect(200);
    expect(logs.access(idOf(later))).toMatchObject({ trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', trace_flags: '00' });
  });
});
