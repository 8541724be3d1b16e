import { afterAll, describe, expect, it } from 'vitest';
import { BROWSER_HEADERS, startAppServer } from '../tools/bench/app-server.ts';
import { removeBuildSnapshot } from '../tools/bench/build-snapshot.ts';
import { loadRoute } from '../tools/bench/load.ts';
import { entryScript, firstLoadScripts } from '../tools/bench/measure.ts';
import { evaluate, type SoakFacts } from '../tools/soak/checks.ts';
import type { Outcome } from '../tools/soak/client.ts';
import { digestsIn } from '../tools/soak/digests.ts';
import { LogIndex } from '../tools/soak/logs.ts';
import { buildMix } from '../tools/soak/mix.ts';
import { sigtermUnderLoad } from '../tools/soak/shutdown.ts';
import { runTraffic } from '../tools/soak/traffic.ts';

const HOME_HTML =
  '<head><link rel="modulepreload" fetchPriority="low" href="/assets/entry-a.js"/><link rel="modulepreload" href="/assets/react-b.js"/></head>' +
  '<body><script id="_R_">window.x={}</script><script type="module" src="/assets/entry-a.js" async=""></script></body>';

/** Memory and descriptor growth need a long run (npm run soak); here they are held level. */
function facts(outcomes: Outcome[], logs: LogIndex): SoakFacts {
  return {
    outcomes,
    inFlight: [],
    logs,
    aliveUntilSigterm: true,
    exit: { code: 0, signal: null },
    stderr: '',
    rssMb: { warm: 100, end: 100 },
    fds: { warm: 20, end: 20 },
  };
}

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
    const logs = new LogIndex();
    logs.add(JSON.stringify({ level: 50, reqId: 'other', digest: 'abc123', msg: 'request failed' }));
    logs.add(JSON.stringify({ level: 30, reqId: 'r1', status: 500, digest: 'abc123', msg: 'request completed' }));
    const kind = buildMix('/a.js').find((k) => k.name === 'server error')!;
    const outcome: Outcome = { kind, phase: 'main', status: 500, reqId: 'r1', digests: ['abc123'], complete: true, wholeDocument: true, ms: 1 };
    const failed = evaluate(facts([outcome], logs)).filter((c) => !c.pass).map((c) => c.name);
    expect(failed).toContain('every digest in a response is a level-50 line with the same request id');
    expect(failed).toContain('each failure logged exactly once; pages, 4xx and disconnects never');
  });

  it('a short soak against the built server passes its traffic, log and drain checks', async () => {
    const logs = new LogIndex();
    const server = await startAppServer({ logLevel: 'info', onLine: logs.add });
    const home = await fetch(`${server.url}/`, { headers: BROWSER_HEADERS });
    const mix = buildMix(entryScript(await home.text()));
    const outcomes = await runTraffic({ base: server.url, mix, phase: 'main', concurrency: 8, durationMs: 1_500, maxRequests: 2_000, keepAlive: true });
    const load = await loadRoute(server.pid, `${server.url}/healthz`, {}, 200, { connections: 4, durationS: 1, warmupS: 1 });
    const drain = await sigtermUnderLoad(server, mix);
    await server.exited;
    const checks = evaluate({ ...facts([...outcomes, ...drain.arriving], logs), inFlight: drain.inFlight, exit: drain.exit, stderr: server.stderr() });
    expect(load.unexpected).toBe(0);
    expect(checks.filter((c) => !c.pass)).toEqual([]);
    expect(checks.some((c) => c.name === 'last log line is "stopped" (clean)')).toBe(true);
  });
});
