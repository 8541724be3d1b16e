import { afterAll, describe, expect, it } from 'vitest';
import { BROWSER_HEADERS, startAppServer } from '../../tools/bench/app-server.ts';
import { removeBuildSnapshot } from '../../tools/bench/build-snapshot.ts';
import { loadRoute } from '../../tools/bench/load.ts';
import { entryScript, firstLoadScripts } from '../../tools/bench/measure.ts';
import { digestsIn } from '../../tools/harness/digests.ts';
import { ServerLog } from '../../tools/harness/server-log.ts';
import { evaluate, FD_SLACK, type SoakFacts } from '../../tools/soak/checks.ts';
import { HEAP_MAX_GROWTH } from '../../tools/soak/heap-checks.ts';
import type { Outcome } from '../../tools/soak/client.ts';
import { buildMix } from '../../tools/soak/mix.ts';
import { INSPECT_ARGS } from '../../tools/soak/live-heap.ts';
import { settledSample } from '../../tools/soak/sample.ts';
import { sigtermUnderLoad } from '../../tools/soak/shutdown.ts';
import { runTraffic } from '../../tools/soak/traffic.ts';

const HOME_HTML =
  '<head><link rel="modulepreload" fetchPriority="low" href="/assets/entry-a.js"/><link rel="modulepreload" href="/assets/react-b.js"/></head>' +
  '<body><script id="_R_">window.x={}</script><script type="module" src="/assets/entry-a.js" async=""></script></body>';

/** Short enough for a test, long enough for closed sockets to leave the descriptor table. */
const TEST_SETTLE_MS = 500;
/**
 * The soak's traffic, load and drain, cut to what shows each of its checks working: two cores
 * run the whole suite, and these phases load both to the full while they last.
 */
const TEST_TRAFFIC_MS = 600;
/** autocannon's shortest run: it stops on a once-a-second tick. */
const TEST_LOAD = { connections: 4, durationS: 1, warmupS: 0 };
/** The drain's streams (1.5 s) then outlive the delay and finish in the grace period. */
const TEST_SHUTDOWN_DELAY_MS = '500';
const HEAP_CHECK = `live heap at the end ≤ ${HEAP_MAX_GROWTH * 100}% above the live heap after warm-up`;
const FD_CHECK = `open descriptors did not grow (slack ${FD_SLACK})`;

/** A run with nothing wrong in it, but for what a test puts in. */
function facts(outcomes: Outcome[], logs: ServerLog, samples: Pick<SoakFacts, 'heapMb' | 'fds'>): SoakFacts {
  return { outcomes, inFlight: [], logs, aliveUntilSigterm: true, exit: { code: 0, signal: null }, stderr: '', ...samples };
}

const failedChecks = (soak: SoakFacts) =>
  evaluate(soak)
    .filter((c) => !c.pass)
    .map((c) => c.name);

describe('bench and soak scripts', () => {
  afterAll(removeBuildSnapshot);

  it('the bench counts module scripts and modulepreload links once each as first-load JS', () => {
    expect(firstLoadScripts(HOME_HTML)).toEqual(['/assets/entry-a.js', '/assets/react-b.js']);
    expect(entryScript(HOME_HTML)).toBe('/assets/entry-a.js');
  });

  it('the soak finds a digest wherever a response shows one', () => {
    expect(digestsIn('<p>Reference <code data-digest="">abc123</code></p>', 'text/html')).toEqual(['abc123']);
    expect(digestsIn('<script>$RX("B:0","def456")</script>', 'text/html')).toEqual(['def456']);
    expect(digestsIn('<!--$!--><template data-dgst="ghi789"></template>', 'text/html')).toEqual(['ghi789']);
    // A boundary carries the digest and its proof: the digest is what the log holds.
    expect(digestsIn('<script>$RX("B:0","S14njVL8koFx6mQ_.AAAAAAAAAAAAAAAA")</script>', 'text/html')).toEqual(['S14njVL8koFx6mQ_']);
    expect(digestsIn('{"error":{"status":500,"digest":"jkl012"}}', 'application/json; charset=utf-8')).toEqual(['jkl012']);
  });

  it('the soak fails when a digest a client saw was never logged for its request', () => {
    const logs = new ServerLog();
    logs.addLine(JSON.stringify({ level: 50, reqId: 'other', digest: 'abc123', msg: 'request failed' }));
    logs.addLine(JSON.stringify({ level: 30, reqId: 'r1', status: 500, digest: 'abc123', msg: 'request completed' }));
    const kind = buildMix('/a.js').find((k) => k.name === 'server error')!;
    const outcome: Outcome = {
      kind,
      phase: 'main',
      status: 500,
      reqId: 'r1',
      digests: ['abc123'],
      complete: true,
      wholeDocument: true,
      ms: 1,
    };
    const failed = failedChecks(facts([outcome], logs, { heapMb: { warm: 100, end: 100 }, fds: { warm: 20, end: 20 } }));
    expect(failed).toContain('every digest in a response is a level-50 line with the same request id');
    expect(failed).toContain('each failure logged exactly once; pages, 4xx and disconnects never');
  });

  it('the soak fails on memory or descriptors that grew past their bounds, and on a sample it could not take', () => {
    const logs = new ServerLog();
    const within = { heapMb: { warm: 100, end: 100 * (1 + HEAP_MAX_GROWTH / 2) }, fds: { warm: 20, end: 20 + FD_SLACK } };
    expect(failedChecks(facts([], logs, within))).not.toEqual(expect.arrayContaining([HEAP_CHECK]));
    expect(failedChecks(facts([], logs, within))).not.toEqual(expect.arrayContaining([FD_CHECK]));
    expect(failedChecks(facts([], logs, { ...within, heapMb: { warm: 100, end: 100 * (1 + HEAP_MAX_GROWTH) + 1 } }))).toContain(HEAP_CHECK);
    expect(failedChecks(facts([], logs, { ...within, fds: { warm: 20, end: 21 + FD_SLACK } }))).toContain(FD_CHECK);
    // A server that died before its sample leaves NaN: that fails, it does not pass by default.
    expect(failedChecks(facts([], logs, { heapMb: { warm: 100, end: Number.NaN }, fds: { warm: 20, end: Number.NaN } }))).toEqual(
      expect.arrayContaining([HEAP_CHECK, FD_CHECK]),
    );
  });

  it('a short soak against the built server passes its traffic, log, memory, descriptor and drain checks', async () => {
    const server = await startAppServer({
      logLevel: 'info',
      keepLines: false,
      nodeArgs: INSPECT_ARGS,
      env: { SHUTDOWN_DELAY_MS: TEST_SHUTDOWN_DELAY_MS },
    });
    const home = await fetch(`${server.url}/`, { headers: BROWSER_HEADERS });
    const mix = buildMix(entryScript(await home.text()));
    const traffic = () =>
      runTraffic({
        base: server.url,
        mix,
        phase: 'main',
        concurrency: 8,
        durationMs: TEST_TRAFFIC_MS,
        maxRequests: 2_000,
        keepAlive: true,
      });
    const warmUp = await traffic();
    const warm = await settledSample(server, TEST_SETTLE_MS);
    const outcomes = await traffic();
    const end = await settledSample(server, TEST_SETTLE_MS);
    const load = await loadRoute(server.pid, `${server.url}/healthz`, {}, 200, TEST_LOAD);
    const drain = await sigtermUnderLoad(server, mix);
    await server.exited;
    // Measured from the live process (its inspector, /proc), as `npm run soak` does.
    expect(warm.heapMb).toBeGreaterThan(0);
    expect(warm.fds).toBeGreaterThan(0);
    const samples = { heapMb: { warm: warm.heapMb, end: end.heapMb }, fds: { warm: warm.fds, end: end.fds } };
    const soak = facts([...warmUp, ...outcomes, ...drain.arriving], server.logs, samples);
    const checks = evaluate({ ...soak, inFlight: drain.inFlight, exit: drain.exit, stderr: server.stderr() });
    expect(load.unexpected).toBe(0);
    // The heap still grows while the caches fill (the first seconds): its bound is for the
    // minutes of `npm run soak`. It is judged on the measured values all the same.
    expect(checks.find((c) => c.name === HEAP_CHECK)?.detail).toContain(`${warm.heapMb.toFixed(1)} → ${end.heapMb.toFixed(1)} MB`);
    expect(checks.filter((c) => !c.pass && c.name !== HEAP_CHECK)).toEqual([]);
    expect(checks.find((c) => c.name === FD_CHECK)).toMatchObject({ pass: true, detail: `${warm.fds} → ${end.fds}` });
    expect(checks.some((c) => c.name === 'last log line is "stopped" (clean)')).toBe(true);
  });
});
