// Prometheus metrics as a scraper sees them: a separate port, counters that follow the traffic,
// and a bounded number of series whatever paths clients ask for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream } from '../../tools/harness/http.ts';
import { isAccessLine } from '../../shared/log-line.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { DIAG, DIAG_TOKEN } from '../support/test-app.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';

const REPORT = { kind: 'caught', digest: 'c-1a2b3c4d5e6f', type: 'TypeError', message: 'x is undefined', path: '/checkout' };
/** client-errors.ts accepts 10 reports a minute per client; the 11th is refused. */
const REPORTS_ALLOWED = 10;
/**
 * Distinct paths a scanner asks for, and how many of them carry the diagnostics token. A path that
 * leaked into a label would add a series each: far past the 16 new series the check allows, and
 * each path is a full 404 render (1,000 of them were 3.5 s of this file’s 8).
 */
const RANDOM_PATHS = 100;
const RANDOM_DIAG_PATHS = 20;
/** Requests in flight at once: a bounded load on loopback. */
const SCAN_CONCURRENCY = 20;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The Prometheus text format, one sample per line: `name{a="b",c="d"} value`. */
function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

function sum(samples: Sample[], name: string, labels: Record<string, string | RegExp> = {}): number {
  return samples
    .filter(
      (s) =>
        s.name === name &&
        Object.entries(labels).every(([key, want]) => (typeof want === 'string' ? s.labels[key] === want : want.test(s.labels[key] ?? ''))),
    )
    .reduce((total, s) => total + s.value, 0);
}

describe('metrics on METRICS_PORT', () => {
  let server: RunningServer;
  let metricsUrl = '';
  const scrape = async () => {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parse(await res.text());
  };

  beforeAll(async () => {
    server = await startServer({ METRICS_PORT: '0', DIAGNOSTICS_TOKEN: DIAG_TOKEN });
    const line = await server.logs.waitFor((l) => typeof l.metricsPort === 'number');
    metricsUrl = `http://127.0.0.1:${line.metricsPort as number}/metrics`;
  });
  afterAll(async () => {
    await server.stop('SIGKILL');
  });

  it('counts requests by route id, failures by kind and status, and refusals', async () => {
    const before = await scrape();
    for (let i = 0; i < 3; i += 1) await (await fetch(`${server.url}/`, { headers: { 'user-agent': BROWSER_UA } })).text();
    for (let i = 0; i < 2; i += 1) await (await fetch(`${server.url}/_diag/server-error`, { headers: DIAG })).text();
    await (await fetch(`${server.url}/_diag/api-error`, { headers: DIAG })).text();
    await (await fetch(`${server.url}/_diag/loader-error`, { headers: { ...DIAG, 'user-agent': BROWSER_UA } })).text();
    const statuses: number[] = [];
    for (let i = 0; i <= REPORTS_ALLOWED; i += 1) {
      const res = await fetch(`${server.url}/api/client-errors`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(REPORT),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array<number>(REPORTS_ALLOWED).fill(204), 429]);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string | RegExp> = {}) => sum(after, name, labels) - sum(before, name, labels);

    expect(delta('http_request_duration_seconds_count', { route: /^page:/, method: 'GET', status_class: '2xx' })).toBe(3);
    expect(delta('http_request_duration_seconds_count', { status_class: '5xx' })).toBe(4);
    expect(delta('app_failures_total', { kind: 'render', status: '500' })).toBe(2);
    expect(delta('app_failures_total', { kind: 'route', status: '500' })).toBe(1);
    expect(delta('app_failures_total', { kind: 'loader', status: '500' })).toBe(1);
    expect(delta('app_failures_total', { kind: 'client_report' })).toBe(REPORTS_ALLOWED);
    expect(delta('http_requests_refused_total', { reason: 'rate_limited' })).toBe(1);
    // The 429 is a refusal, not a failure: it has no digest (server/failures/recorder.ts).
    expect(delta('app_failures_total', { status: '429' })).toBe(0);
    // Event-loop lag, heap and GC from prom-client's default collectors.
    for (const name of ['nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes', 'process_resident_memory_bytes']) {
      expect(sum(after, name)).toBeGreaterThan(0);
    }
    expect(after.some((s) => s.name === 'nodejs_gc_duration_seconds_count')).toBe(true);
  });

  it('counts 4xx answers by status class and never as failures: a failure is what has a digest', async () => {
    const before = await scrape();
    const answers = [
      await fetch(`${server.url}/no-such-page-${Date.now()}`),
      await fetch(`${server.url}/no-such-page/at-all`),
      // A page without an action refuses a write (server/render/react-router-handler.ts).
      await fetch(`${server.url}/about`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' }),
      // A broken percent escape in the path.
      await fetch(`${server.url}/%E0%A4%A`),
    ];
    for (const res of answers) await res.text();
    expect(answers.map((res) => res.status)).toEqual([404, 404, 405, 400]);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string | RegExp> = {}) => sum(after, name, labels) - sum(before, name, labels);
    expect(delta('http_request_duration_seconds_count', { status_class: '4xx' })).toBe(answers.length);
    expect(delta('app_failures_total')).toBe(0);
    // Nor ever was one: a 4xx series would sit in the output at 0 for a scanner to have filled.
    expect(after.filter((s) => s.name === 'app_failures_total' && /^4/.test(s.labels.status ?? ''))).toEqual([]);
  });

  it("labels the orchestrator's probes route health, so the 5xx ratio and latency rules can leave them out", async () => {
    const before = await scrape();
    for (const path of ['/healthz', '/readyz', '/readyz']) await (await fetch(`${server.url}${path}`)).text();
    const after = await scrape();
    const count = (samples: Sample[]) => sum(samples, 'http_request_duration_seconds_count', { route: 'health', status_class: '2xx' });
    expect(count(after) - count(before)).toBe(3);
  });

  it('shows a streamed page as an active stream while it is open', async () => {
    const stream = await openStream(`${server.url}/_diag/slow?ms=1500`, { 'user-agent': BROWSER_UA, ...DIAG });
    expect(sum(await scrape(), 'http_active_streams')).toBe(1);
    const done = await stream.rest;
    expect(done.body).toMatch(/<\/html>$/);
    expect(sum(await scrape(), 'http_active_streams')).toBe(0);
  });

  it(`keeps the number of series bounded under ${RANDOM_PATHS} distinct random paths`, async () => {
    const series = (samples: Sample[]) =>
      new Set(
        samples.filter((s) => s.name.startsWith('http_') || s.name.startsWith('app_')).map((s) => `${s.name}${JSON.stringify(s.labels)}`),
      );
    const before = series(await scrape());
    const paths = Array.from({ length: RANDOM_PATHS }, (_, i) => `/${Math.random().toString(36).slice(2)}/${i}`);
    const withToken = paths.slice(0, RANDOM_DIAG_PATHS).map((path) => `/_diag${path}`);
    const all = [...paths, ...withToken];
    for (let i = 0; i < all.length; i += SCAN_CONCURRENCY) {
      await Promise.all(
        all.slice(i, i + SCAN_CONCURRENCY).map(async (path) => (await fetch(`${server.url}${path}`, { headers: DIAG })).text()),
      );
    }
    const samples = await scrape();
    const after = series(samples);
    const added = [...after].filter((key) => !before.has(key));
    // At most one new label set: the histogram's series for (unmatched, GET, 4xx); a 404 is no failure.
    expect(added.filter((key) => key.includes('"route":"') && !key.includes('"route":"unmatched"'))).toEqual([]);
    expect(added.length).toBeLessThanOrEqual(16);
    const values = new Set(samples.flatMap((s) => Object.values(s.labels)));
    expect(all.filter((path) => [...values].some((value) => value.includes(path.split('/').at(-2)!)))).toEqual([]);
  });

  it('serves metrics only on its own port, and never logs a scrape', async () => {
    const onApp = await fetch(`${server.url}/metrics`);
    expect(onApp.status).toBe(404);
    await onApp.text();
    // The app's own 404 is logged like any other; a scrape of the metrics port never is.
    await server.logs.waitFor((line) => line.path === '/metrics' && isAccessLine(line));
    const lines = server.logs.lines.length;
    await scrape();
    // Lines are written in order: once a request made after the scrape is logged, a logged
    // scrape would be there before it.
    await (await fetch(`${server.url}/after-the-scrape`)).text();
    await server.logs.waitFor((line) => line.path === '/after-the-scrape' && isAccessLine(line));
    expect(
      server.logs.lines
        .slice(lines)
        .filter(isAccessLine)
        .map((line) => line.path),
    ).toEqual(['/after-the-scrape']);
    expect((await fetch(metricsUrl.replace('/metrics', '/'))).status).toBe(404);
  });

  it('is off by default: no metrics server', async () => {
    const plain = await startServer();
    try {
      await (await fetch(`${plain.url}/`)).text();
      expect(plain.logs.lines.some((line) => line.metricsPort !== undefined)).toBe(false);
      expect((await fetch(`${plain.url}/metrics`)).status).toBe(404);
    } finally {
      await plain.stop('SIGKILL');
    }
  });
});
