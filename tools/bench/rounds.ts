// The alternating rounds (issue 44, gate 3): in each round every case is loaded on each of its
// sides, one after the other, the sides' order reversed every other round, so a neighbour's load
// that comes and goes, or a server still warming, favours no side. A side's figures are the
// median of its rounds; a ratio is the median of the rounds' ratios, each of two runs a few
// seconds apart.
import { BROWSER_HEADERS } from './app-server.ts';
import { sidesOf, type BenchCase, type ServerKey, type Side } from './cases.ts';
import { loadRoute, type LoadSettings, type Measured } from './load.ts';
import type { RunningServer } from '../harness/spawn.ts';

export interface BenchServer {
  server: RunningServer;
  /** Bytes it has logged so far (its log file's size); none for a floor that keeps no log. */
  logBytes?: () => number;
}

export type Servers = Partial<Record<ServerKey, BenchServer>>;

export interface CaseRuns {
  ours: Measured[];
  floor: Measured[];
  main: Measured[];
}

function serverOf(servers: Servers, side: Side): BenchServer {
  const running = servers[side.server];
  if (!running) throw new Error(`no ${side.server} server in this run`);
  return running;
}

/** One load run of `path` on a server, printed as it ends (`who` and `what` name it in the line). */
export async function loadOnce(
  who: string,
  what: string,
  running: BenchServer,
  path: string,
  expect: number,
  settings: LoadSettings,
): Promise<Measured> {
  const { server, logBytes } = running;
  const measured = await loadRoute(server.pid, server.url + path, { ...BROWSER_HEADERS }, expect, settings, logBytes);
  if (!server.isRunning()) throw new Error(`${who} exited during ${what}:\n${server.stderr()}`);
  const flag = measured.unexpected === 0 ? '' : `  UNEXPECTED ${JSON.stringify(measured.statuses)} errors ${measured.errors}`;
  const log = logBytes ? `  log ${measured.logBytesPerRequest.toFixed(0)} B/req` : '';
  console.log(
    `  ${who.padEnd(8)} ${what.padEnd(22)} ${measured.rps.toFixed(0).padStart(6)} req/s  p50 ${measured.p50} ms  p99 ${measured.p99} ms  CPU ${measured.cpuUsPerRequest.toFixed(0)} µs/req${log}${flag}`,
  );
  return measured;
}

/**
 * Every side of every case once for the warm-up's length, then the rounds. Without that first
 * pass the first row measured a colder server than the rest (490 req/s, 740 after the others).
 */
export async function runRounds(
  cases: BenchCase[],
  servers: Servers,
  settings: LoadSettings,
  rounds: number,
): Promise<Map<string, CaseRuns>> {
  const withMain = servers.main !== undefined;
  for (const benchCase of cases) {
    for (const side of sidesOf(benchCase, withMain)) {
      const running = serverOf(servers, side);
      const warmSettings = { ...settings, durationS: settings.warmupS, warmupS: 0 };
      const warm = await loadRoute(running.server.pid, running.server.url + side.path, { ...BROWSER_HEADERS }, side.expect, warmSettings);
      if (warm.unexpected > 0)
        throw new Error(`${side.role} ${benchCase.id} ${side.path}, warming: ${JSON.stringify(warm.statuses)}, errors ${warm.errors}`);
    }
  }
  const runs = new Map<string, CaseRuns>(cases.map((benchCase) => [benchCase.id, { ours: [], floor: [], main: [] }]));
  for (let round = 0; round < rounds; round++) {
    for (const benchCase of cases.filter((candidate) => candidate.everyRound || round === 0)) {
      const sides = sidesOf(benchCase, withMain);
      for (const side of round % 2 === 0 ? sides : sides.reverse()) {
        const what = `${benchCase.id} #${round + 1}`;
        const measured = await loadOnce(`${side.role}`, what, serverOf(servers, side), side.path, side.expect, settings);
        runs.get(benchCase.id)![side.role].push(measured);
      }
    }
  }
  return runs;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A side's rounds as one: each figure its median; counts added, so no unexpected answer is lost. */
export function medianOf(runs: readonly Measured[]): Measured {
  const statuses: Record<string, number> = {};
  for (const run of runs) for (const [status, count] of Object.entries(run.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
  const of = (pick: (m: Measured) => number) => median(runs.map(pick));
  return {
    rps: of((m) => m.rps),
    p50: of((m) => m.p50),
    p99: of((m) => m.p99),
    requests: runs.reduce((sum, m) => sum + m.requests, 0),
    statuses,
    errors: runs.reduce((sum, m) => sum + m.errors, 0),
    cpuUsPerRequest: of((m) => m.cpuUsPerRequest),
    unexpected: runs.reduce((sum, m) => sum + m.unexpected, 0),
    logBytesPerRequest: of((m) => m.logBytesPerRequest),
  };
}

/** The median of the rounds' ratios of `ours` to `theirs` (req/s); NaN with no rounds. */
export function medianRatio(ours: readonly Measured[], theirs: readonly Measured[]): number {
  const ratios = ours.slice(0, theirs.length).map((mine, round) => mine.rps / theirs[round]!.rps);
  return ratios.length === 0 ? Number.NaN : median(ratios);
}
