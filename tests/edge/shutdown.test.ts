// The shutdown sequence as a terminal and a load balancer see it: Ctrl-C under `npm start`,
// repeated signals, readiness 503 while the server still accepts, then the drain.
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { openStream } from '../../tools/harness/http.ts';
import { createDrain } from '../../server/edge/shutdown.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { APP_BUILDS, DIAG } from '../support/test-app.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';

/** The built server serves the tests' fixture app. */
const APP_ENV = { APP_BUILD: APP_BUILDS.host };
const DIAG_ENV = { ...APP_ENV, DIAGNOSTICS_TOKEN: DIAG['x-diagnostics-token'] };

/** A GET on a connection of its own (no keep-alive pool): what a probe or a new client does. */
function freshGet(url: string): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { 'user-agent': BROWSER_UA } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    });
    req.on('error', reject).end();
  });
}

/** Signals every process in the group, as a terminal's Ctrl-C does (npm and node both get it). */
function signalGroup(server: RunningServer, signal: NodeJS.Signals): void {
  process.kill(-server.child.pid!, signal);
}

describe('shutdown', () => {
  let server: RunningServer | undefined;
  let group = false;
  afterEach(() => {
    if (server && group) {
      try {
        signalGroup(server, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    } else void server?.stop('SIGKILL');
    server = undefined;
  });

  it('Ctrl-C under npm start, pressed three times, still drains a slow stream completely', async () => {
    group = true;
    server = await startServer({ ...DIAG_ENV, SHUTDOWN_DELAY_MS: '300', SHUTDOWN_GRACE_MS: '10000' }, ['npm', 'start', '--silent']);
    const stream = await openStream(`${server.url}/_diag/slow?ms=1500`, { 'user-agent': BROWSER_UA, ...DIAG }, 'Waiting 1500 ms');
    expect(stream).toMatchObject({ open: true, first: expect.stringContaining('Waiting 1500 ms') });
    // Each keypress reaches npm and node; npm forwards its copy too.
    signalGroup(server, 'SIGINT');
    await server.logs.waitFor((line) => String(line.msg).startsWith('shutting down'));
    signalGroup(server, 'SIGINT');
    await server.logs.waitFor((line) => String(line.msg).startsWith('draining'));
    signalGroup(server, 'SIGINT');

    const done = await stream.rest;
    expect(done.status).toBe(200);
    expect(done.body).toContain('Finished after 1500 ms.');
    expect(done.body.trimEnd().endsWith('</html>')).toBe(true);
    expect((await server.exited).code).toBe(0);
    const lines = server.logs.lines;
    expect(lines.filter((line) => String(line.msg).startsWith('shutting down'))).toHaveLength(1);
    expect(lines.filter((line) => String(line.msg).startsWith('SIGINT while shutting down')).length).toBeGreaterThanOrEqual(2);
    expect(lines.at(-1)).toMatchObject({ msg: 'stopped', clean: true });
  });

  it('during the delay a new connection gets 503 from /readyz and pages still answer, then the listener closes', async () => {
    server = await startServer({ ...APP_ENV, SHUTDOWN_DELAY_MS: '3000' });
    expect((await freshGet(`${server.url}/readyz`)).status).toBe(200);
    server.child.kill('SIGTERM');
    await server.logs.waitFor((line) => String(line.msg).startsWith('shutting down'));

    const ready = await freshGet(`${server.url}/readyz`);
    expect(ready).toMatchObject({ status: 503, body: 'shutting down' });
    const health = await freshGet(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    // Still serving, but every response closes its connection so keep-alive clients move on.
    const page = await freshGet(`${server.url}/`);
    expect(page).toMatchObject({ status: 200, connection: 'close' });

    await server.logs.waitFor((line) => String(line.msg).startsWith('draining'));
    // Refused once the listener is closed; a connection that raced the close is cut as idle.
    await expect(freshGet(`${server.url}/readyz`)).rejects.toMatchObject({ code: expect.stringMatching(/^ECONN(REFUSED|RESET)$/) });
    expect((await server.exited).code).toBe(0);
  });

  it.each([
    ['the drain finishes in time', 5_000, true],
    ['the grace period runs out', 50, false],
  ] as const)('leaves no timer behind when %s', async (_name, graceMs, clean) => {
    const timers = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
    const http = createServer((_req, res) => {
      res.write('started');
      setTimeout(() => res.end(), 300).unref();
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    // In flight: its first chunk has arrived, its end has not.
    let started!: () => void;
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    const response = new Promise((resolve) =>
      request(`http://127.0.0.1:${port}/`, { agent: false }, (res) => res.once('data', started).resume().on('close', resolve)).end(),
    );
    await inFlight;
    const before = timers();
    const drain = createDrain(pino({ level: 'silent' }), { delayMs: 20, graceMs });
    const done = drain.drain(http, 'SIGTERM');
    expect(drain.isShuttingDown()).toBe(true);
    expect(await done).toBe(clean);
    await response;
    expect(timers()).toBeLessThanOrEqual(before);
  });
});
