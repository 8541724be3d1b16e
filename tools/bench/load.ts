// One load run with autocannon: a warm-up whose numbers are discarded, then the measured run.
import autocannon, { type Result } from 'autocannon';
import { cpuSeconds } from './proc.ts';

export interface LoadSettings {
  connections: number;
  durationS: number;
  warmupS: number;
}

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Responses by status, warm-up included. */
  statuses: Record<string, number>;
  /** Connection errors and timeouts (autocannon counts both as errors), warm-up included. */
  errors: number;
  /** The server's CPU time per response, µs, warm-up included: what latency-bound rows hide. */
  cpuUsPerRequest: number;
  /** Responses whose status was not the expected one, plus errors: anything but 0 fails the run. */
  unexpected: number;
  /** Bytes the server logged per response, warm-up included; 0 for a server that keeps no log. */
  logBytesPerRequest: number;
}

/** No single response should take this long; one that does counts as an error. */
const TIMEOUT_S = 10;

function countStatuses(results: Result[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const result of results) {
    for (const [status, { count }] of Object.entries(result.statusCodeStats)) counts[status] = (counts[status] ?? 0) + count;
  }
  return counts;
}

/**
 * Loads `url` on the server process `pid` (whose CPU time is read around the run). `logBytes`
 * says how many bytes the server has logged so far (the size of its stdout file).
 */
export async function loadRoute(
  pid: number,
  url: string,
  headers: Record<string, string>,
  expect: number,
  settings: LoadSettings,
  logBytes: () => number = () => 0,
  /** A path per request, where one path would let a per-path memo stand in for the work. */
  nextPath?: () => string,
): Promise<Measured> {
  const cpuBefore = cpuSeconds(pid);
  const logBefore = logBytes();
  const result = await autocannon({
    url,
    headers,
    connections: settings.connections,
    duration: settings.durationS,
    timeout: TIMEOUT_S,
    requests: nextPath && [{ setupRequest: (request) => ({ ...request, path: nextPath() }) }],
    // autocannon ends a phase on its once-a-second tick: a warm-up of 0 s would still last one.
    warmup: settings.warmupS > 0 ? { connections: settings.connections, duration: settings.warmupS } : undefined,
  });
  const cpu = cpuSeconds(pid) - cpuBefore;
  const logged = logBytes() - logBefore;
  const runs = result.warmup ? [result, result.warmup] : [result];
  const responses = runs.reduce((sum, run) => sum + run.requests.total, 0);
  const statuses = countStatuses(runs);
  const errors = runs.reduce((sum, run) => sum + run.errors, 0);
  const wrong = Object.entries(statuses).reduce((sum, [status, count]) => sum + (Number(status) === expect ? 0 : count), 0);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    statuses,
    errors,
    cpuUsPerRequest: responses > 0 ? (cpu * 1e6) / responses : Number.NaN,
    unexpected: wrong + errors,
    logBytesPerRequest: responses > 0 ? logged / responses : Number.NaN,
  };
}
