// `npm run bench`: the host against floors measured in the same run (docs/performance.md), one
// table with a row per case. Misses against targets are printed; only a crash or an unexpected
// status fails the run.
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { BROWSER_HEADERS } from './app-server.ts';
import { numberFlag, parseFlags } from './args.ts';
import { ensureBenchApp } from './bench-app.ts';
import { benchCases, STREAMED_MS } from './cases.ts';
import { COMPRESSED_PAGE_LOAD_RUNS, loadCompressed } from './compressed-page.ts';
import { benchFixedAndFailureFloors, FIXED_AND_FAILURE_LOAD_RUNS } from './fixed-and-failure-floors.ts';
import { benchFloor, startBareFloor, startHttpFloor } from './floors.ts';
import type { LoadSettings } from './load.ts';
import { coldStartMs, entryScript, firstLoadJs, streamTiming } from './measure.ts';
import { machineBusy } from './proc.ts';
import { machine, renderText, writeArtifacts, type BenchReport } from './report.ts';
import { loadOnce, runRounds, type BenchServer } from './rounds.ts';
import { prepareBaseline, startServers, type Baseline } from './servers.ts';
import { assertStored, stampede, STAMPEDE_WAIT_S, STORED_PATH } from './stored-page.ts';
import { gateTargets, otherTargets, toRow } from './targets.ts';
import { fetchOnce } from '../harness/http.ts';

/** As in production: every access line and every failure line is written (to a file). */
const SERVER_LOG_LEVEL = 'info';
/** The issue 11 setting: enough concurrency that a slow failure path would queue. */
const DEFAULT_CONNECTIONS = 32;
/** Issue 44's gate 3 takes the median of three alternating runs. */
const DEFAULT_ROUNDS = 3;
/** With two cores or more, each server gets a core to itself and the load generator another. */
const SERVER_CPU = '1';
const BENCH_CPU = '0';
const COLD_START_SAMPLES = 3;
const STREAM_TIMING_SAMPLES = 5;
/** Enough for the JIT to settle on each route before it is measured. */
const WARMUP_S = { full: 3, short: 1 };
const DURATION_S = { full: 10, short: 2 };
/** Sampled before the run: other work on the machine makes every number below noisy. */
const BUSY_SAMPLE_MS = 2_000;
const BUSY_WARNING = 0.1;
/** Fixed costs besides the load runs: builds, spawns, cold starts, timings. Past budget the run aborts. */
const FIXED_BUDGET_S = 240;
/**
 * A load run past its warm-up and duration: autocannon ends each phase on its once-a-second tick,
 * and a busy machine adds to that (the first full run with --baseline took 17.5 minutes, its
 * budget at 2 s a run 18.5).
 */
const RUN_SLACK_S = 4;

type Settings = LoadSettings & { short: boolean; pinned: boolean; rounds: number; baseline?: string };

/** Pins this process (autocannon runs in it) to BENCH_CPU; false when that cannot be done. */
function pinBench(wanted: boolean): boolean {
  if (!wanted || cpus().length < 2) return false;
  return spawnSync('taskset', ['-cp', BENCH_CPU, String(process.pid)], { stdio: 'ignore' }).status === 0;
}

function readSettings(): Settings {
  const flags = parseFlags(process.argv.slice(2), {
    values: ['duration', 'connections', 'rounds', 'baseline'],
    switches: ['short', 'no-pin'],
  });
  const short = flags.short === true;
  return {
    short,
    pinned: pinBench(flags['no-pin'] !== true),
    connections: numberFlag(flags, 'connections', DEFAULT_CONNECTIONS, 1_000),
    durationS: numberFlag(flags, 'duration', short ? DURATION_S.short : DURATION_S.full, 600),
    warmupS: short ? WARMUP_S.short : WARMUP_S.full,
    rounds: Math.round(numberFlag(flags, 'rounds', DEFAULT_ROUNDS, 9)),
    ...(typeof flags.baseline === 'string' && { baseline: resolve(flags.baseline) }),
  };
}

const serverCpus = (settings: Settings) => (settings.pinned ? SERVER_CPU : undefined);

async function fetched(url: string, expect: number): Promise<string> {
  const answer = await fetchOnce(url, { headers: { ...BROWSER_HEADERS } });
  if (answer.status !== expect) throw new Error(`${url} answered ${answer.status}, not ${expect}`);
  return answer.body;
}

/** Every load run of a bench with these settings, for its watchdog; each has its warm-up. */
function startWatchdog(settings: Settings, withMain: boolean): void {
  const cases = benchCases('/asset');
  const sides = (everyRound: boolean) =>
    cases.filter((c) => c.everyRound === everyRound).reduce((sum, c) => sum + 2 + (withMain && c.main ? 1 : 0), 0);
  const runs = sides(true) * settings.rounds + sides(false) + COMPRESSED_PAGE_LOAD_RUNS + FIXED_AND_FAILURE_LOAD_RUNS + 2;
  const warming = (sides(true) + sides(false)) * (settings.warmupS + RUN_SLACK_S);
  const budgetS = FIXED_BUDGET_S + STAMPEDE_WAIT_S + warming + runs * (settings.durationS + settings.warmupS + RUN_SLACK_S);
  setTimeout(() => {
    console.error(`bench: still running after ${budgetS} s; aborting`);
    process.exit(2);
  }, budgetS * 1000).unref();
}

/** The rounds and everything measured on the servers they run on, which are stopped after. */
async function benchServers(settings: Settings, baseline: Baseline | undefined) {
  const cpu = serverCpus(settings);
  const run = await startServers(SERVER_LOG_LEVEL, cpu, baseline);
  const { host, demo, fixedPage } = run.servers as Required<typeof run.servers>;
  try {
    await assertStored(demo.server, 'the demo');
    if (run.servers.main) await assertStored(run.servers.main.server, 'the previous main');
    const page = await fetched(`${host.server.url}/`, 200);
    const demoHome = await fetched(`${demo.server.url}/`, 200);
    const js = await firstLoadJs(demo.server.url, demoHome);
    const streaming = [];
    for (const [app, { server }] of [
      ['the bench app', host],
      ['the demo', demo],
    ] as const) {
      const timing = await streamTiming(server.url, '/', { ...BROWSER_HEADERS }, STREAM_TIMING_SAMPLES);
      streaming.push({ ...timing, path: `${app}'s /` });
    }
    const cases = benchCases(entryScript(page));
    const runs = await runRounds(cases, run.servers, settings, settings.rounds);
    const rows = cases.map((benchCase) => toRow(benchCase, runs.get(benchCase.id)!));
    const compressed = await loadCompressed(host.server, '/', settings, host.logBytes!);
    // What the same-output floor answers: these bytes, as a browser got them (floor-same-output.ts).
    const pages = {
      notFound: (await fetchOnce(`${host.server.url}/no-such-page`, { headers: { ...BROWSER_HEADERS } })).body,
      stored: await fetched(`${demo.server.url}${STORED_PATH}`, 200),
    };
    const fixed = await benchFixedAndFailureFloors(fixedPage, settings, cpu, pages);
    const stale = await stampede(demo.server);
    const peakRssMb = run.peakRssMb();
    return { page, js, streaming, rows, compressed, fixed, stampede: stale, peakRssMb };
  } finally {
    await run.stop();
  }
}

/** Floors measured once, on the streamed page alone: its bytes on node:http, the same page with no router. */
async function benchPageFloors(settings: Settings, html: string) {
  const once = (who: string, path: string) => (floor: BenchServer['server']) =>
    loadOnce(who, 'streamed page', { server: floor }, path, 200, settings);
  const http = await benchFloor(() => startHttpFloor(html, serverCpus(settings)), once('node:http', '/'));
  const bare = await benchFloor(() => startBareFloor(serverCpus(settings)), once('bare', `/slow?ms=${STREAMED_MS}`));
  return { http, bare };
}

async function collect(settings: Settings): Promise<{ report: BenchReport; unexpected: number }> {
  const busyBefore = await machineBusy(BUSY_SAMPLE_MS);
  if (busyBefore > BUSY_WARNING)
    console.log(`bench: WARNING the machine is ${(busyBefore * 100).toFixed(0)}% busy before the run: expect noisy numbers`);
  ensureBenchApp();
  const baseline = settings.baseline === undefined ? undefined : await prepareBaseline(settings.baseline);
  startWatchdog(settings, baseline !== undefined);
  const coldStart = await coldStartMs(COLD_START_SAMPLES, SERVER_LOG_LEVEL);
  const ours = await benchServers(settings, baseline);
  const floors = await benchPageFloors(settings, ours.page);
  const { rows, fixed } = ours;
  const report: BenchReport = {
    generatedAt: new Date().toISOString(),
    machine: { ...machine(), busyBefore },
    settings: { ...settings, serverLogLevel: SERVER_LOG_LEVEL },
    ...(baseline && { baseline: { dir: baseline.dir, commit: baseline.commit } }),
    rows,
    targets: [
      ...gateTargets(rows),
      ...otherTargets(rows, {
        bare: floors.bare.results,
        fixed,
        compressed: ours.compressed,
        stampede: ours.stampede,
        firstLoadGzipBytes: ours.js.gzipBytes,
      }),
    ],
    httpFloor: floors.http.results,
    bareFloor: floors.bare.results,
    streaming: ours.streaming,
    coldStart,
    peakRssMb: { ...ours.peakRssMb, http: floors.http.peakRssMb, bare: floors.bare.peakRssMb, ...fixed.peakRssMb },
    firstLoadJs: ours.js,
    compressedPage: ours.compressed,
    fixedAndFailureFloors: fixed,
    stampede: ours.stampede,
  };
  const measured = [
    ...rows.flatMap((row) => [row.ours, row.floor.measured, ...(row.main ? [row.main.measured] : [])]),
    ours.compressed.plain,
    ours.compressed.compressed,
    floors.http.results,
    floors.bare.results,
    fixed.express404,
    fixed.failure,
    fixed.sameOutput404,
    fixed.sameOutputPage,
  ];
  const { stampede: stale } = ours;
  const unexpected = measured.reduce((sum, m) => sum + m.unexpected, stale.errors + stale.requests - (stale.statuses[200] ?? 0));
  return { report, unexpected };
}

async function main(): Promise<number> {
  const settings = readSettings();
  const pinning = settings.pinned ? `servers on CPU ${SERVER_CPU}, load from CPU ${BENCH_CPU}` : 'not pinned';
  console.log(
    `bench: ${settings.connections} connections, ${settings.warmupS} s warm-up + ${settings.durationS} s per run, ${settings.rounds} rounds, server LOG_LEVEL=${SERVER_LOG_LEVEL}, ${pinning}`,
  );
  const { report, unexpected } = await collect(settings);
  console.log(`\n${renderText(report)}\n`);
  console.log(`Wrote ${writeArtifacts(report).join(' and ')}`);
  if (unexpected > 0) console.error(`bench: ${unexpected} responses had an unexpected status or failed`);
  return unexpected > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('bench failed:', error);
    process.exit(1);
  },
);
