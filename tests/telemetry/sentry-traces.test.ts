// Sentry's traces (whose decisions are followed) and its flush before exit: split from sentry.test.ts.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { FakeSentry, WITH_SENTRY } from '../support/fake-sentry.ts';
import { fetchOnce } from '../../tools/harness/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { DIAG, DIAG_TOKEN } from '../support/test-app.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';

function tags(event: Record<string, unknown>): Record<string, string> {
  return (event.tags ?? {}) as Record<string, string>;
}

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
    // A graceful stop flushes the SDK (server/telemetry/sentry.ts): whatever it would send is sent by then.
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
