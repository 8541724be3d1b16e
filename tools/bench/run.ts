// `npm run bench`: our server against three floors (docs/performance.md), one table. Misses
// against targets are printed; only a crash or an unexpected status fails the run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BROWSER_HEADERS, startAppServer } from './app-server.ts';
import { numberFlag, parseFlags } from './args.ts';
import { benchFloor, startBareFloor, startHttpFloor, startReactFloor } from './floors.ts';
import { benchFixedAndFailureFloors, FIXED_AND_FAILURE_LOAD_RUNS } from './fixed-and-failure-floors.ts';
import { loadStoredPage, stampede, STAMPEDE_WAIT_S, STORED_PATH } from './stored-page.ts';
import { fetchOnce } from '../harness/http.ts';
import { loadRoute, type LoadSettings, type Measured } from './load.ts';
import { coldStartMs, entryScript, firstLoadJs, streamTiming } from './measure.ts';
import { machineBusy, memoryMb } from './proc.ts';
import { machine, renderText, writeArtifacts, type BenchReport } from './report.ts';
import { benchRoutes, STREAMED_PATH, withFloorAsset, type BenchRoute } from './routes.ts';
import type { RunningServer } from '../harness/spawn.ts';
import { evaluateTargets, storedAndFloorTargets, toRows } from './targets.ts';
import { COMPRESSED_PAGE_LOAD_RUNS, loadCompressed } from './compressed-page.ts';
import { benchRouteGrowth, GROWTH_LOAD_RUNS } from './route-growth.ts';

/** As in production: every access line and every failure line is written (to a file). */
const SERVER_LOG_LEVEL = 'info';
/** The issue 11 setting: enough concurrency that a slow failure path would queue. */
const DEFAULT_CONNECTIONS = 32;
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
/** Fixed costs besides the load runs: spawns, cold starts, timings. Past budget the run aborts. */
const FIXED_BUDGET_S = 90;

type Settings = LoadSettings & { short: boolean; pinned: boolean };

/** Pins this process (autocannon runs in it) to BENCH_CPU; false when that cannot be done. */
function pinBench(wanted: boolean): boolean {
  if (!wanted || cpus().length < 2) return false;
  return spawnSync('taskset', ['-cp', BENCH_CPU, String(process.pid)], { stdio: 'ignore' }).status === 0;
}

function readSettings(): Settings {
  const flags = parseFlags(process.argv.slice(2), { values: ['duration', 'connections'], switches: ['short', 'no-pin'] });
  const short = flags.short === true;
  return {
    short,
    pinned: pinBench(flags['no-pin'] !== true),
    connections: numberFlag(flags, 'connections', DEFAULT_CONNECTIONS, 1_000),
    durationS: numberFlag(flags, 'duration', short ? DURATION_S.short : DURATION_S.full, 600),
    warmupS: short ? WARMUP_S.short : WARMUP_S.full,
  };
}

function assertRunning(server: RunningServer, what: string): void {
  if (!server.isRunning()) throw new Error(`the server exited during ${what}:\n${server.stderr()}`);
}

async function loadAll(
  server: RunningServer,
  routes: BenchRoute[],
  pathOf: (route: BenchRoute) => string,
  settings: Settings,
  who: string,
  logBytes?: () => number,
) {
  // Every route once before any is measured: the first row was measured on a colder server than
  // the rest (490 req/s, 740 after the other rows), while production serves warm.
  for (const route of routes) {
    const warm = await loadRoute(server.pid, server.url + pathOf(route), { ...BROWSER_HEADERS }, route.expect, {
      ...settings,
      durationS: settings.warmupS,
      warmupS: 0,
    });
    if (warm.unexpected > 0) throw new Error(`${who} ${route.label}, warming: ${JSON.stringify(warm.statuses)}, errors ${warm.errors}`);
  }
  const results = new Map<string, Measured>();
  for (const route of routes) {
    const measured = await loadRoute(server.pid, server.url + pathOf(route), { ...BROWSER_HEADERS }, route.expect, settings, logBytes);
    assertRunning(server, `${who} ${route.label}`);
    results.set(route.id, measured);
    const flag = measured.unexpected === 0 ? '' : `  UNEXPECTED ${JSON.stringify(measured.statuses)} errors ${measured.errors}`;
    const log = logBytes ? `  log ${measured.logBytesPerRequest.toFixed(0)} B/req` : '';
    console.log(
      `  ${who.padEnd(14)} ${route.label.padEnd(30)} ${measured.rps.toFixed(0).padStart(6)} req/s  p50 ${measured.p50} ms  p99 ${measured.p99} ms${log}${flag}`,
    );
  }
  return results;
}

const serverCpus = (settings: Settings) => (settings.pinned ? SERVER_CPU : undefined);

async function stopCleanly(server: RunningServer, who: string): Promise<void> {
  const exit = await server.stop();
  if (exit.code !== 0) throw new Error(`${who} exited with ${exit.code ?? exit.signal} on SIGTERM:\n${server.stderr()}`);
}

async function homeHtml(server: RunningServer): Promise<string> {
  const home = await fetchOnce(`${server.url}/`, { headers: { ...BROWSER_HEADERS } });
  if (home.status !== 200) throw new Error(`/ answered ${home.status}`);
  return home.body;
}

async function benchOurServer(settings: Settings) {
  // The log goes to a file, as a log shipper would read it, and its growth is weighed per route.
  const logDir = mkdtempSync(join(tmpdir(), 'bench-log-'));
  const logFile = join(logDir, 'server.log');
  const server = await startAppServer({ logLevel: SERVER_LOG_LEVEL, stdoutFile: logFile, cpus: serverCpus(settings) });
  const logBytes = () => statSync(logFile).size;
  try {
    const html = await homeHtml(server);
    const routes = benchRoutes(entryScript(html));
    const js = await firstLoadJs(server.url, html);
    const streaming = [];
    for (const path of ['/', STREAMED_PATH])
      streaming.push(await streamTiming(server.url, path, { ...BROWSER_HEADERS }, STREAM_TIMING_SAMPLES));
    const results = await loadAll(server, routes, (route) => route.path, settings, 'server', logBytes);
    const compressed = await loadCompressed(server, settings, logBytes);
    assertRunning(server, 'the compressed page');
    const storedPage = await loadStoredPage(server, settings, logBytes);
    // What the same-output floor answers: these bytes, as a browser got them (floor-same-output.ts).
    const pages = {
      notFound: (await fetchOnce(`${server.url}/no-such-page`, { headers: { ...BROWSER_HEADERS } })).body,
      stored: (await fetchOnce(`${server.url}${STORED_PATH}`, { headers: { ...BROWSER_HEADERS } })).body,
    };
    const stale = await stampede(server);
    assertRunning(server, 'the stampede');
    const peakRssMb = memoryMb(server.pid, 'VmHWM');
    return { html, routes, js, streaming, results, compressed, storedPage, pages, stampede: stale, peakRssMb };
  } finally {
    await stopCleanly(server, 'the server');
    rmSync(logDir, { recursive: true, force: true });
  }
}

/** Every load run: our routes, the same on the two Express + React floors, the node:http floor, our page plain and compressed, the stored page, the fixed-page and failure floors, the growth rows. */
const LOAD_RUNS = 3 * benchRoutes('/asset').length + 1 + COMPRESSED_PAGE_LOAD_RUNS + 1 + FIXED_AND_FAILURE_LOAD_RUNS + GROWTH_LOAD_RUNS;

function startWatchdog(settings: Settings): void {
  // Each run has its warm-up, and loadAll warms every route once more first.
  const budgetS = FIXED_BUDGET_S + STAMPEDE_WAIT_S + LOAD_RUNS * (settings.durationS + 2 * settings.warmupS);
  setTimeout(() => {
    console.error(`bench: still running after ${budgetS} s; aborting`);
    process.exit(2);
  }, budgetS * 1000).unref();
}

async function collect(settings: Settings): Promise<{ report: BenchReport; unexpected: number }> {
  const busyBefore = await machineBusy(BUSY_SAMPLE_MS);
  if (busyBefore > BUSY_WARNING)
    console.log(`bench: WARNING the machine is ${(busyBefore * 100).toFixed(0)}% busy before the run: expect noisy numbers`);
  const coldStart = await coldStartMs(COLD_START_SAMPLES, SERVER_LOG_LEVEL);
  const ours = await benchOurServer(settings);
  const http = await benchFloor(
    () => startHttpFloor(ours.html, serverCpus(settings)),
    async (floor) => {
      const root: BenchRoute = { id: 'http', label: 'fixed HTML', path: '/', expect: 200, floorPath: '/' };
      return (await loadAll(floor, [root], () => '/', settings, 'node:http')).get('http')!;
    },
  );
  const react = await benchFloor(
    () => startReactFloor(serverCpus(settings)),
    async (floor) => {
      const routes = withFloorAsset(ours.routes, entryScript(await homeHtml(floor)));
      return { routes, measured: await loadAll(floor, routes, (route) => route.floorPath, settings, 'express+react') };
    },
  );

  const bare = await benchFloor(
    () => startBareFloor(serverCpus(settings)),
    (floor) => loadAll(floor, react.results.routes, (route) => route.floorPath, settings, 'bare express+react'),
  );
  const fixed = await benchFixedAndFailureFloors(
    (floor, routes, who, logBytes) => loadAll(floor, routes, (route) => route.path, settings, who, logBytes),
    serverCpus(settings),
    ours.pages,
  );
  const growth = await benchRouteGrowth(settings, serverCpus(settings));
  const rows = toRows(react.results.routes, ours.results, { react: react.results.measured, bare: bare.results }, http.results);
  const report: BenchReport = {
    generatedAt: new Date().toISOString(),
    machine: { ...machine(), busyBefore },
    settings: { ...settings, serverLogLevel: SERVER_LOG_LEVEL },
    rows,
    httpFloor: http.results,
    streaming: ours.streaming,
    coldStart,
    peakRssMb: { server: ours.peakRssMb, httpFloor: http.peakRssMb, reactFloor: react.peakRssMb, bareFloor: bare.peakRssMb },
    firstLoadJs: ours.js,
    targets: [
      ...evaluateTargets(rows, ours.js.gzipBytes, ours.compressed),
      ...storedAndFloorTargets(rows, ours.storedPage, fixed, ours.stampede),
    ],
    storedPage: ours.storedPage,
    stampede: ours.stampede,
    fixedAndFailureFloors: fixed,
    compressedPage: ours.compressed,
    growth,
  };
  const grown = [...Object.values(growth.demo.rows), ...Object.values(growth.grown.rows)];
  const unexpected = [
    ...rows,
    ours.compressed.plain,
    ours.compressed.compressed,
    http.results,
    ...react.results.measured.values(),
    ...bare.results.values(),
    ...grown,
    ours.storedPage,
    fixed.fixedPage,
    fixed.express404,
    fixed.failure,
    fixed.sameOutput404,
    fixed.sameOutputPage,
  ].reduce((sum, m) => sum + m.unexpected, ours.stampede.errors + ours.stampede.requests - (ours.stampede.statuses[200] ?? 0));
  return { report, unexpected };
}

async function main(): Promise<number> {
  const settings = readSettings();
  startWatchdog(settings);
  const pinning = settings.pinned ? `servers on CPU ${SERVER_CPU}, load from CPU ${BENCH_CPU}` : 'not pinned';
  console.log(
    `bench: ${settings.connections} connections, ${settings.warmupS} s warm-up + ${settings.durationS} s per route, server LOG_LEVEL=${SERVER_LOG_LEVEL}, ${pinning}`,
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
