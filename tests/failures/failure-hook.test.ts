import request from 'supertest';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FailureEvent, OnFailure } from '../../shared/failure-event.ts';
import { parseServerDigest } from '../../shared/digest-proof.ts';
import { FAILURE_MESSAGE, isAccessLine, LEVEL, type LogLine } from '../../shared/log-line.ts';
import { createDigester } from '../../server/failures/digest.ts';
import {
  HOOK_BUSY_MESSAGE,
  HOOK_RESUMED_MESSAGE,
  HOOK_THREW_MESSAGE,
  HOOK_TIMED_OUT_MESSAGE,
  isolateFailureHook,
  MAX_HOOK_CALLS_IN_FLIGHT,
} from '../../server/failures/failure-hook.ts';
import { createFailureRecorder } from '../../server/failures/recorder.ts';
import { createLogger } from '../../server/observe/logger.ts';
import { loadConfig } from '../../server/config/config.ts';
import { streamedValue } from '../../tools/harness/digests.ts';
import { fetchOnce } from '../../tools/harness/http.ts';
import { ServerLog } from '../../tools/harness/server-log.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';
import { createTestApp, DIAG, type TestApp } from '../support/test-app.ts';

// The app's failure hook (client/instrumentation.server.ts, docs/operating.md "The failure
// hook"): once per recorded failure, after its line and after the answer, with what a provider
// needs; whatever the hook does, the answer and the log stay as they were.

interface Seen {
  event: FailureEvent;
  /** What the log held when the hook ran. */
  failureLogged: boolean;
  answered: boolean;
}

/** An app whose hook records each call and what was already written then. */
function hooked(behave: (event: FailureEvent) => void | Promise<void> = () => {}, env: Record<string, string> = {}) {
  const seen: Seen[] = [];
  const app: { host?: TestApp } = {};
  const onFailure: OnFailure = (event) => {
    const mine = (line: LogLine) => line.reqId === event.reqId;
    const lines = app.host!.logs.lines;
    seen.push({
      event,
      failureLogged: lines.some((line) => mine(line) && line.msg === FAILURE_MESSAGE),
      answered: lines.some((line) => mine(line) && isAccessLine(line)),
    });
    return behave(event);
  };
  const host = (app.host = createTestApp(env, { onFailure }));
  return { host, seen };
}

/** The hook runs once the response is done: a turn of the event loop after supertest has it. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
const idOf = (res: { headers: Record<string, unknown> }) => res.headers['x-request-id'] as string;
const warnings = (logs: ServerLog) => logs.lines.filter((line) => line.level === LEVEL.warn && /failure hook/.test(String(line.msg)));
const failures = (logs: ServerLog) => logs.lines.filter((line) => line.msg === FAILURE_MESSAGE);

describe('the failure hook', () => {
  it('gets each failure once, after its line and its answer, with its digest, status, route, kind and request id', async () => {
    const { host, seen } = hooked();
    const render = await request(host.app).get('/_diag/server-error').set(DIAG).expect(500);
    const loader = await request(host.app).get('/_diag/loader-error').set(DIAG).expect(500);
    const action = await request(host.app).post('/_diag/action-error').set(DIAG).type('form').send('x=1').expect(500);
    const resource = await request(host.app).get('/_diag/api-error').set(DIAG).expect(500);
    await settle();
    const digestOf = (reqId: string) => failures(host.logs).find((line) => line.reqId === reqId)!.digest;
    expect(seen.map(({ event }) => [event.kind, event.route, event.status, event.reqId, event.digest])).toEqual([
      ['render', 'page:diag/server-error', 500, idOf(render), digestOf(idOf(render))],
      ['loader', 'page:diag/loader-error', 500, idOf(loader), digestOf(idOf(loader))],
      ['action', 'page:diag/action-error', 500, idOf(action), digestOf(idOf(action))],
      ['resource', '/_diag/api-error', 500, idOf(resource), digestOf(idOf(resource))],
    ]);
    expect(seen.every(({ failureLogged, answered }) => failureLogged && answered)).toBe(true);
    expect(seen[0]!.event.error).toBeInstanceOf(Error);
    // With its request and whose lines these are, as its failure line has them.
    const line = failures(host.logs).find((failure) => failure.reqId === idOf(action))!;
    expect(seen[2]!.event).toMatchObject({ method: 'POST', path: '/_diag/action-error', release: line.release, replica: line.replica });
    expect(Date.parse(seen[2]!.event.time)).toBeGreaterThan(Date.now() - 60_000);
    expect(seen[2]!.event.signal.aborted).toBe(false);
  });

  it("aborts the hook's signal at its timeout: a stalled sink's connections close with it", async () => {
    const sink = createServer(() => {}); // accepts, reads, never answers
    const open = new Set<Socket>();
    let opened = 0;
    sink.on('connection', (socket) => {
      opened += 1;
      open.add(socket);
      socket.on('close', () => open.delete(socket));
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/ingest`;
    try {
      const { host } = hooked((event) => fetch(url, { method: 'POST', body: event.digest, signal: event.signal }).then(() => {}), {
        FAILURE_HOOK_TIMEOUT_MS: '300',
      });
      for (let n = 0; n < 5; n += 1) await request(host.app).get('/_diag/server-error').set(DIAG).expect(500);
      await vi.waitFor(() => expect(opened).toBe(5));
      // The timeout aborts each fetch, which closes its connection: none outlives the hook.
      await vi.waitFor(() => expect(open.size).toBe(0), { timeout: 3_000 });
    } finally {
      sink.closeAllConnections();
      sink.close();
    }
  });

  it.each<[string, (event: FailureEvent) => void | Promise<void>, string]>([
    [
      'throws',
      () => {
        throw new Error('exporter down');
      },
      HOOK_THREW_MESSAGE,
    ],
    ['rejects', () => Promise.reject(new Error('exporter down')), HOOK_THREW_MESSAGE],
    ['never settles', () => new Promise<void>(() => {}), HOOK_TIMED_OUT_MESSAGE],
  ])('a hook that %s costs one warn line: the same answer, one failure line, no second failure', async (_, behave, message) => {
    const { host, seen } = hooked(behave, { FAILURE_HOOK_TIMEOUT_MS: '30' });
    const res = await request(host.app).get('/_diag/server-error').set(DIAG).expect(500);
    expect(res.text).toContain('Digest: ');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toHaveLength(1);
    expect(failures(host.logs)).toHaveLength(1);
    const [warning, ...more] = warnings(host.logs);
    expect(more).toEqual([]);
    expect(warning).toMatchObject({ msg: message, reqId: idOf(res), kind: 'render', digest: failures(host.logs)[0]!.digest });
  });

  it('never holds the answer while its promise is pending, and a late rejection is not logged twice', async () => {
    let reject: (error: Error) => void = () => {};
    const { host, seen } = hooked(() => new Promise<void>((_, no) => (reject = no)), { FAILURE_HOOK_TIMEOUT_MS: '50' });
    const res = await request(host.app).get('/_diag/api-error').set(DIAG).expect(500);
    await settle();
    expect(seen).toHaveLength(1);
    expect(res.text).toContain(String(failures(host.logs)[0]!.digest));
    await new Promise((resolve) => setTimeout(resolve, 100));
    reject(new Error('too late'));
    await settle();
    expect(warnings(host.logs).map((line) => line.msg)).toEqual([HOOK_TIMED_OUT_MESSAGE]);
  });

  it(`holds at most ${MAX_HOOK_CALLS_IN_FLIGHT} calls that ignore their signal: past them failures are counted, and told when one settles`, async () => {
    const pending: (() => void)[] = [];
    // A hook that ignores its signal and settles only when the test says: a sink stalled for good.
    const { host, seen } = hooked(() => new Promise<void>((resolve) => pending.push(resolve)), { FAILURE_HOOK_TIMEOUT_MS: '20' });
    const extra = 6;
    for (let i = 0; i < MAX_HOOK_CALLS_IN_FLIGHT + extra; i += 1) await request(host.app).get('/_diag/api-error').set(DIAG).expect(500);
    await settle();
    expect(seen).toHaveLength(MAX_HOOK_CALLS_IN_FLIGHT);
    // Every failure still has its line: only the hook is spared.
    expect(failures(host.logs)).toHaveLength(MAX_HOOK_CALLS_IN_FLIGHT + extra);
    expect(warnings(host.logs).filter((line) => line.msg === HOOK_BUSY_MESSAGE)).toHaveLength(1);
    pending.shift()!();
    await settle();
    expect(warnings(host.logs).filter((line) => line.msg === HOOK_RESUMED_MESSAGE)).toEqual([
      expect.objectContaining({ skipped: extra, maxInFlight: MAX_HOOK_CALLS_IN_FLIGHT }),
    ]);
    await request(host.app).get('/_diag/api-error').set(DIAG).expect(500);
    await settle();
    expect(seen).toHaveLength(MAX_HOOK_CALLS_IN_FLIGHT + 1);
    for (const resolve of pending) resolve();
  });

  it('gets a browser failure only when its report carries the server’s proof', async () => {
    const { host, seen } = hooked();
    await host.listen();
    try {
      const page = await fetchOnce(`${host.url}/_diag/stream-error`, { headers: { 'user-agent': BROWSER_UA, ...DIAG } });
      const { digest, proof } = parseServerDigest(streamedValue(page.body))!;
      const pageReqId = String(page.headers['x-request-id']);
      await settle();
      seen.length = 0;
      const report = { kind: 'recoverable', type: 'Error', message: 'm', path: '/_diag/stream-error', pageReqId };
      await request(host.app)
        .post('/api/client-errors')
        .send({ ...report, digest: 'c-1a2b3c4d5e6f' })
        .expect(204);
      await request(host.app)
        .post('/api/client-errors')
        .send({ ...report, digest })
        .expect(204);
      await request(host.app)
        .post('/api/client-errors')
        .send({ ...report, digest, proof })
        .expect(204);
      await settle();
      expect(seen.map(({ event }) => [event.kind, event.digest, event.reqId, event.route, event.status])).toEqual([
        ['browser', digest, pageReqId, '/_diag/stream-error', undefined],
      ]);
    } finally {
      await host.close();
    }
  });
});

describe('the failure hook for a process fault', () => {
  let timer: NodeJS.Timeout | undefined;
  afterEach(() => clearTimeout(timer));

  it('is called after the fault line, and the exit waits for it only up to its timeout', async () => {
    const logs = new ServerLog();
    const logger = createLogger(loadConfig({ NODE_ENV: 'production' }), logs);
    const calls: FailureEvent[] = [];
    const hook = isolateFailureHook(
      (event) => {
        calls.push(event);
        expect(logs.lines.at(-1)).toMatchObject({ level: LEVEL.fatal, digest: event.digest });
        return new Promise<void>((resolve) => (timer = setTimeout(resolve, 60_000)));
      },
      logger,
      30,
      { release: 'shop@1.4.0', replica: 'web-1' },
    );
    const recorder = createFailureRecorder({ digester: createDigester('test-digest-key-0123456789'), logger, onFailure: hook });
    const { digest, hooked: settled } = recorder.fault('uncaughtException', new Error('boom'));
    await settled;
    expect(calls).toEqual([
      {
        digest,
        status: undefined,
        route: 'uncaughtException',
        kind: 'process',
        reqId: undefined,
        error: expect.any(Error),
        method: undefined,
        path: undefined,
        release: 'shop@1.4.0',
        replica: 'web-1',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        signal: expect.any(AbortSignal),
      },
    ]);
    // Past its timeout the host stops waiting, and says so to what the hook started.
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(logs.lines.at(-1)).toMatchObject({ msg: HOOK_TIMED_OUT_MESSAGE, digest, kind: 'process' });
  });
});
