// `npm run soak`: mixed traffic against the built server on loopback for a bounded time, then
// SIGTERM under load; every guarantee is a PASS/FAIL check and any FAIL exits 1.
import { BROWSER_HEADERS, startAppServer } from '../bench/app-server.ts';
import { numberFlag, parseFlags } from '../bench/args.ts';
import { fetchOnce } from '../harness/http.ts';
import { entryScript } from '../bench/measure.ts';
import type { RunningServer } from '../harness/spawn.ts';
import { ABUSE_S, abusiveClients } from './abuse.ts';
import { rawAbusiveClients } from './raw-abuse.ts';
import { evaluate } from './checks.ts';
import type { Outcome } from './client.ts';
import { buildMix, type Kind } from './mix.ts';
import { printReport } from './report.ts';
import { INSPECT_ARGS } from './live-heap.ts';
import { settledSample, type Sample } from './sample.ts';
import { sigtermUnderLoad } from './shutdown.ts';
import { runTraffic } from './traffic.ts';
import { uploadChecks } from './uploads.ts';

const DEFAULT_DURATION_S = 60;
const MAX_DURATION_S = 3_600;
/**
 * Warm-up before the baseline sample: JIT, and the caches filling to their caps (compiled
 * templates, stored pages); a baseline taken earlier would measure that, not leaks. A quarter
 * of longer runs.
 */
const MIN_WARMUP_S = 10;
const WARMUP_SHARE = 0.25;
/** Enough clients to keep the server's core busy (~95% here) despite the slow pages. */
const DEFAULT_CONCURRENCY = 64;
/** Far above what two cores serve, so time ends the run, but a count bounds it as well. */
const MAX_REQUESTS_PER_S = 5_000;
/** Spawn, settles, the drain, the uploads (tools/soak/uploads.ts) and the checks, beyond the traffic itself. */
const FIXED_BUDGET_S = 150;
/** Of the server's last log line and stderr, shown when the soak fails. */
const MAX_SHOWN_CHARS = 2_000;

async function assetPath(server: RunningServer): Promise<string> {
  const home = await fetchOnce(`${server.url}/`, { headers: { ...BROWSER_HEADERS } });
  if (home.status !== 200) throw new Error(`/ answered ${home.status} before the soak began`);
  return entryScript(home.body);
}

function phase(server: RunningServer, mix: Kind[], name: 'warm-up' | 'main', seconds: number, concurrency: number): Promise<Outcome[]> {
  console.log(`soak: ${name} for ${seconds.toFixed(1)} s with ${concurrency} clients`);
  return runTraffic({
    base: server.url,
    mix,
    phase: name,
    concurrency,
    durationMs: seconds * 1000,
    maxRequests: Math.ceil(seconds * MAX_REQUESTS_PER_S),
    keepAlive: true,
    stopWhen: () => !server.isRunning(),
  });
}

async function main(): Promise<number> {
  const flags = parseFlags(process.argv.slice(2), { values: ['duration', 'warmup', 'concurrency'], switches: [] });
  const durationS = numberFlag(flags, 'duration', DEFAULT_DURATION_S, MAX_DURATION_S);
  const warmupS = numberFlag(flags, 'warmup', Math.max(MIN_WARMUP_S, durationS * WARMUP_SHARE), MAX_DURATION_S);
  const concurrency = numberFlag(flags, 'concurrency', DEFAULT_CONCURRENCY, 256);
  const budgetS = warmupS + durationS + 5 * ABUSE_S + FIXED_BUDGET_S;
  setTimeout(() => {
    console.error(`soak: still running after ${budgetS} s; aborting`);
    process.exit(2);
  }, budgetS * 1000).unref();

  const server = await startAppServer({ logLevel: 'info', keepLines: false, nodeArgs: INSPECT_ARGS });
  console.log(`soak: server pid ${server.pid} at ${server.url}, LOG_LEVEL=info; ${warmupS} s warm-up + ${durationS} s soak`);

  try {
    return await soakAndCheck(server, warmupS, durationS, concurrency);
  } catch (error) {
    // A client that cannot reach the server says only ECONNREFUSED: say whether the server is
    // gone, how it ended and what it last wrote, so one failed CI run is enough to act on.
    throw new Error(`${(error as Error).message}\n${serverState(server)}`, { cause: error });
  }
}

function serverState(server: RunningServer): string {
  const state = server.isRunning() ? 'the server is still running' : 'the server had exited';
  const last = server.logs.last === undefined ? 'none' : JSON.stringify(server.logs.last).slice(0, MAX_SHOWN_CHARS);
  const stderr = server.stderr().slice(-MAX_SHOWN_CHARS) || '(empty)';
  return `${state} (pid ${server.pid}); its last log line: ${last}\nits stderr: ${stderr}`;
}

async function soakAndCheck(server: RunningServer, warmupS: number, durationS: number, concurrency: number): Promise<number> {
  const logs = server.logs;
  let signalled = false;
  let aliveUntilSigterm = true;
  void server.exited.then(() => (aliveUntilSigterm &&= signalled));
  const mix = buildMix(await assetPath(server));
  const warm = await phase(server, mix, 'warm-up', warmupS, concurrency);
  const afterWarmup = await settledSample(server);
  const bytesBefore = logs.bytes;
  const soakStarted = performance.now();
  const soak = await phase(server, mix, 'main', durationS, concurrency);
  const volume = { requests: soak.length, bytes: logs.bytes - bytesBefore, seconds: (performance.now() - soakStarted) / 1000 };
  const atEnd = await settledSample(server);
  console.log(`soak: abusive clients, ${ABUSE_S} s each`);
  const abuse = [...(await abusiveClients(server.url, logs)), ...(await rawAbusiveClients(server.url, logs))];
  const afterAbuse = await settledSample(server);

  console.log('soak: SIGTERM under load');
  signalled = true;
  const drain = await sigtermUnderLoad(server, mix);
  await server.exited; // stdout read to its last line

  const outcomes = [...warm, ...soak, ...drain.arriving];
  const checks = [
    ...evaluate({
      outcomes,
      inFlight: drain.inFlight,
      logs,
      aliveUntilSigterm,
      exit: drain.exit,
      stderr: server.stderr(),
      heapMb: memoryAt('heapMb', afterWarmup, atEnd, afterAbuse),
      rssMb: memoryAt('rssMb', afterWarmup, atEnd, afterAbuse),
      fds: { warm: afterWarmup.fds, end: atEnd.fds },
      abuse,
    }),
    // On a server of their own: their memory is judged apart from the traffic's.
    ...(await uploadChecks()),
  ];
  printReport([...outcomes, ...drain.inFlight], checks, volume, abuse);
  return checks.every((c) => c.pass) ? 0 : 1;
}

function memoryAt(measure: 'heapMb' | 'rssMb', warm: Sample, end: Sample, afterAbuse: Sample) {
  return { warm: warm[measure], end: end[measure], afterAbuse: afterAbuse[measure] };
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('soak failed:', error);
    process.exit(1);
  },
);
