// A log reader that stops reading (a log shipper paused, restarting or overwhelmed), seen from
// outside: a built server whose stdout pipe this test stops reading while it sends requests.
// Lines past the buffer are dropped and counted, never waited for (server/observe/log-destination.ts).
import { Agent } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fetchOnce } from '../../tools/harness/http.ts';
import { sleep } from '../../tools/harness/net.ts';
import { LEVEL, LOG_DROPS_MESSAGE, type LogLine } from '../../shared/log-line.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { DIAG } from '../support/test-app.ts';

/** The smallest buffer config.ts allows, so a few hundred lines overflow it and the pipe's own buffer. */
const SMALL_BUFFER = { LOG_BUFFER_BYTES: String(32 * 1024) };
/**
 * A 404's access line carries its path up to 1,024 characters (docs/logs.md): each of these
 * lines is about 1.3 KB, so a few hundred fill the kernel's socket buffer (about 200 KB) and more.
 */
const LONG = 'x'.repeat(1_000);
/**
 * Where the burst's paths are: a missing asset is the host's plain 404, its access line as long
 * (the path is in it), at a quarter of the CPU of the app's 404 page, which React renders (600 of
 * those took 0.8 to 1.6 s of each test here, on a machine the whole suite keeps busy).
 */
const MISSING_ASSETS = '/assets';
const BURST = 600;
/** A server blocked on its log never answers; past this, the test fails rather than waits. */
const EXIT_BOUND_MS = 10_000;

let server: RunningServer | undefined;
afterEach(async () => {
  server?.child.stdout?.resume();
  await server?.stop('SIGKILL');
  server = undefined;
});

/** `count` requests for fresh long paths of missing assets, eight at a time on kept-alive connections: their statuses. */
async function burst(url: string, prefix: string, count: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const paths = Array.from({ length: count }, (_, i) => `${url}${MISSING_ASSETS}/${prefix}-${i}-${LONG}`);
  try {
    return (await Promise.all(paths.map((path) => fetchOnce(path, { agent })))).map((res) => res.status);
  } finally {
    agent.destroy();
  }
}

const accessLines = (lines: LogLine[], prefix: string) => lines.filter((line) => line.path?.startsWith(`${MISSING_ASSETS}/${prefix}-`));
const dropLines = (lines: LogLine[]) => lines.filter((line) => line.msg === LOG_DROPS_MESSAGE);
const exitOf = (running: RunningServer) =>
  new Promise<number | null>((resolve) => {
    if (running.child.exitCode !== null) resolve(running.child.exitCode);
    running.child.once('exit', (code) => resolve(code));
  });

async function droppedMetric(running: RunningServer, level: string): Promise<number> {
  const port = (await running.logs.waitFor((line) => typeof line.metricsPort === 'number')).metricsPort;
  const text = (await fetchOnce(`http://127.0.0.1:${String(port)}/metrics`)).body;
  return Number(new RegExp(`^log_lines_dropped_total\\{level="${level}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
}

describe('a log reader that stops reading', () => {
  // One server for the three stalls that need no buffer of their own, and the third stops it: a
  // start is half a second of CPU on a suite that keeps both cores busy. Each test reads only
  // what came after its own stall began; its reader reads again after it, as a shipper would.
  let shared: RunningServer;
  beforeAll(async () => {
    shared = await startServer({
      ...SMALL_BUFFER,
      METRICS_PORT: '0',
      DIAGNOSTICS_TOKEN: DIAG['x-diagnostics-token'],
      SHUTDOWN_GRACE_MS: '1000',
    });
    await shared.logs.waitFor((line) => typeof line.metricsPort === 'number');
  });
  afterEach(() => void shared?.child.stdout?.resume());
  afterAll(() => shared?.stop('SIGKILL'));
  /** The drop-count line of the stall that began when the log had `from` lines. */
  const dropLineAfter = (from: number) => {
    const earlier = new Set(dropLines(shared.logs.lines.slice(0, from)));
    return shared.logs.waitFor((line) => line.msg === LOG_DROPS_MESSAGE && !earlier.has(line));
  };

  it('costs dropped lines, never a request: each is answered, and once read again one line counts what was dropped, as the metric does', async () => {
    const from = shared.logs.lines.length;
    const droppedBefore = await droppedMetric(shared, 'info');
    shared.child.stdout!.pause();
    const statuses = await burst(shared.url, 'stalled', BURST);
    expect(statuses.every((status) => status === 404)).toBe(true);
    shared.child.stdout!.resume();

    const drops = await dropLineAfter(from);
    const dropped = Number(drops.dropped);
    expect(dropped).toBeGreaterThan(0);
    expect(drops).toMatchObject({ level: LEVEL.warn, droppedByLevel: { info: dropped } });
    // Every line was either written or counted, none twice: the received and the dropped make the burst.
    await expect.poll(() => accessLines(shared.logs.lines, 'stalled').length + dropped).toBe(BURST);
    expect(dropLines(shared.logs.lines.slice(from))).toHaveLength(1);
    expect((await droppedMetric(shared, 'info')) - droppedBefore).toBe(dropped);
    // What was written kept its order.
    const times = shared.logs.lines.map((line) => Number(line.time));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(shared.isRunning()).toBe(true);
  });

  it('drops failure lines last: with the buffer full of access lines, every failure line is still written', async () => {
    const from = shared.logs.lines.length;
    shared.child.stdout!.pause();
    await burst(shared.url, 'filler', BURST);
    const failed = await Promise.all([1, 2, 3].map(() => fetchOnce(`${shared.url}/_diag/api-error`, { headers: DIAG })));
    expect(failed.map((res) => res.status)).toEqual([500, 500, 500]);
    shared.child.stdout!.resume();

    const drops = await dropLineAfter(from);
    expect(drops.droppedByLevel).toEqual({ info: expect.any(Number) });
    for (const res of failed) {
      const reqId = String(res.headers['x-request-id']);
      expect(shared.logs.failures(reqId)).toHaveLength(1);
    }
  });

  // Last of the three: it stops the server they share.
  it('does not hold a SIGTERM: the process still drains and exits, its flush bounded', async () => {
    shared.child.stdout!.pause();
    await burst(shared.url, 'before-stop', BURST);
    shared.child.kill('SIGTERM');
    const code = await Promise.race([exitOf(shared), sleep(EXIT_BOUND_MS).then(() => 'still running')]);
    expect(code).toBe(0);
  });

  it('that catches up during a shutdown gets every line, "stopped" last', async () => {
    // A buffer of 1 MiB, so nothing is dropped: what this test is about is the order at exit.
    server = await startServer({ LOG_BUFFER_BYTES: String(1024 * 1024) });
    server.child.stdout!.pause();
    const count = 300; // about 390 KB of lines: past the socket's buffer, inside the 1 MiB buffer
    await burst(server.url, 'queued', count);
    server.child.kill('SIGTERM');
    // The reader comes back after the server has begun to stop, within the flush's deadline.
    setTimeout(() => server?.child.stdout?.resume(), 100);
    expect((await server.exited).code).toBe(0);
    expect(accessLines(server.logs.lines, 'queued')).toHaveLength(count);
    expect(dropLines(server.logs.lines)).toEqual([]);
    expect(server.logs.last).toMatchObject({ msg: 'stopped', clean: true });
    expect(server.logs.afterStopped).toEqual([]);
  });
});
