// The targets the bench reports against. A miss is printed, never fatal: numbers on a shared
// 2-core machine vary, and the table is worth having either way.
import type { Measured } from './load.ts';

export interface Row extends Measured {
  id: string;
  label: string;
  path: string;
  expect: number;
  /** Our req/s over the node:http floor's. */
  vsHttp: number;
  floorPath: string;
  floorRps: number;
  floorCpuUsPerRequest: number;
  /** Our req/s over the Express + React floor's on `floorPath`. */
  vsFloor: number;
}

export interface Target {
  name: string;
  pass: boolean;
  detail: string;
  /** The row the target is about and the target in brief, to show it in the table. */
  rowId?: string;
  short?: string;
}

/** Our own page must cost little beyond Express + React themselves. */
const HOME_MIN_RATIO = 0.9;
/** Error pages do more on purpose (digest, one log line, a React error page): a little slack. */
const ERROR_MIN_RATIO = 0.8;
/** First-load JS budget, gzipped: a common budget for a landing page on a mid-range phone. */
export const FIRST_LOAD_BUDGET_BYTES = 100 * 1024;

const ratio = (value: number) => `${value.toFixed(2)}×`;

function ratioTarget(rows: Row[], id: string, min: number, what: string): Target {
  const row = rows.find((candidate) => candidate.id === id);
  if (!row) throw new Error(`no bench row ${id}`);
  return {
    name: `${row.label} ≥ ${min}× ${what}`,
    pass: row.vsFloor >= min,
    detail: `${ratio(row.vsFloor)} (${row.rps.toFixed(0)} vs ${row.floorRps.toFixed(0)} req/s on ${row.floorPath})`,
    rowId: id,
    short: `≥ ${min}×`,
  };
}

export function evaluateTargets(rows: Row[], firstLoadGzipBytes: number): Target[] {
  const home = rows.find((row) => row.id === 'home')!;
  const error = rows.find((row) => row.id === 'server-error')!;
  return [
    ratioTarget(rows, 'home', HOME_MIN_RATIO, 'the Express+React floor'),
    ratioTarget(rows, 'server-error', ERROR_MIN_RATIO, "the floor's own error path"),
    ratioTarget(rows, 'not-found', ERROR_MIN_RATIO, "the floor's own 404"),
    {
      name: 'error path not slower than the home page',
      pass: error.rps >= home.rps && error.p50 <= home.p50,
      detail: `${error.rps.toFixed(0)} vs ${home.rps.toFixed(0)} req/s, p50 ${error.p50} vs ${home.p50} ms`,
    },
    {
      name: `first-load JS < ${FIRST_LOAD_BUDGET_BYTES / 1024} KB gzipped`,
      pass: firstLoadGzipBytes < FIRST_LOAD_BUDGET_BYTES,
      detail: `${(firstLoadGzipBytes / 1024).toFixed(1)} KB`,
    },
  ];
}
