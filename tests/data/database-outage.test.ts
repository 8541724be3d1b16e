// A database that is down or slow is a failure like any other (server/data/availability.ts):
// each request that needs it answers 503 with a digest and one failure line, never hangs; the
// outage is told once and its end once. The built server serves the fixture app's board
// (tests/apps/host/app/routes/board.tsx) from PostgreSQL behind a proxy the test breaks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTAGE_MESSAGE, RECOVERED_MESSAGE } from '../../server/data/availability.ts';
import { SERVER_DIGEST } from '../../shared/digest-proof.ts';
import { createPostgresDatabase } from '../support/databases.ts';
import { ServerLog, startServer, type RunningServer } from '../support/server.ts';
import { APP_BUILDS } from '../support/test-app.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

/** Short, so a stalled database fails the request in well under the test's time. */
const TIMEOUT_MS = '300';

let proxy: TcpProxy;
let server: RunningServer;

beforeAll(async () => {
  const url = new URL(await createPostgresDatabase());
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
  url.port = String(proxy.port);
  server = await startServer({
    APP_BUILD: APP_BUILDS.host,
    DATABASE_URL: url.href,
    DATABASE_CONNECT_TIMEOUT_MS: TIMEOUT_MS,
    DATABASE_STATEMENT_TIMEOUT_MS: TIMEOUT_MS,
  });
});
afterAll(async () => {
  await server?.stop();
  await proxy?.close();
});

const board = async () => {
  const res = await fetch(`${server.url}/board`);
  return { status: res.status, body: await res.text(), retryAfter: res.headers.get('retry-after') };
};
const linesSaying = (msg: string) => server.logs.lines.filter((line) => line.msg === msg);
const failureLines = () => server.logs.lines.filter((line) => line.level === 50);

describe('the database down or slow', () => {
  it('is a 503 with a digest and one line per request, the outage told once and its end once', async () => {
    expect((await board()).status).toBe(200);

    await proxy.down();
    const answers = [await board(), await board(), await board()];
    expect(answers.map((answer) => answer.status)).toEqual([503, 503, 503]);
    const digests = answers.map((answer) => /Digest: <code[^>]*>([\w-]+)</.exec(answer.body)?.[1]);
    expect(digests[0]).toMatch(SERVER_DIGEST);
    // One failure, one digest: an operator finds every request it failed under one.
    expect(new Set(digests).size).toBe(1);
    expect(answers[0]!.body).not.toMatch(/ECONNREFUSED|database unavailable|DATABASE_URL/);
    const failed = failureLines();
    expect(failed).toHaveLength(3);
    expect(failed.every((line) => line.status === 503 && line.digest === digests[0])).toBe(true);
    expect(linesSaying(OUTAGE_MESSAGE)).toHaveLength(1);
    expect(linesSaying(OUTAGE_MESSAGE)[0]).toMatchObject({ level: 40 });

    await proxy.up();
    expect((await board()).status).toBe(200);
    expect((await board()).status).toBe(200);
    expect(linesSaying(RECOVERED_MESSAGE)).toHaveLength(1);
    expect(failureLines()).toHaveLength(3);
  });

  it('waits at boot for a database that is starting, says so once, then migrates and serves', async () => {
    const url = new URL(await createPostgresDatabase());
    const late = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
    url.port = String(late.port);
    await late.down();
    const logs = new ServerLog();
    const starting = startServer({ APP_BUILD: APP_BUILDS.host, DATABASE_URL: url.href }, undefined, logs);
    // The database starts once the boot has found it down, however long the boot took to get there.
    await logs.waitFor((line) => String(line.msg).startsWith('database not reachable yet'));
    await late.up();
    const booted = await starting;
    try {
      expect((await fetch(`${booted.url}/board`)).status).toBe(200);
      const waiting = booted.logs.lines.filter((line) => String(line.msg).startsWith('database not reachable yet'));
      expect(waiting).toEqual([expect.objectContaining({ level: 40, msg: 'database not reachable yet: waiting up to 30 s' })]);
      expect(booted.logs.lines.filter((line) => line.level === 60)).toEqual([]);
    } finally {
      await booted.stop();
      await late.close();
    }
  });

  it('is a 503 within its timeouts when the database holds the connection and answers nothing', async () => {
    const before = failureLines().length;
    proxy.stall();
    const started = performance.now();
    const answer = await board();
    const tookMs = performance.now() - started;
    expect(answer.status).toBe(503);
    // Bounded by the timeouts (300 ms, and query_timeout's second past it), never the request's deadline.
    expect(tookMs).toBeLessThan(5_000);
    expect(failureLines()).toHaveLength(before + 1);
    // A slow database is no outage: nothing is announced.
    expect(linesSaying(OUTAGE_MESSAGE)).toHaveLength(1);
    // Answering again, the board is served again: the connection that timed out is not handed out
    // again (it would wait for the answer it gave up on: server/data/postgres-dialect.ts).
    await proxy.up();
    expect([(await board()).status, (await board()).status, (await board()).status]).toEqual([200, 200, 200]);
  });
});
