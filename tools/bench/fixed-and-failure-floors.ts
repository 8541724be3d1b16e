// Issue 37's floors, loaded as the other floors are (run.ts loadAll): bare Express's fixed
// 10 KB page and its own 404 (floor-express.ts), the failure floor's digest error page
// (floor-failure.tsx), and our 404 and stored page's own answers on bare Express and pino-http
// (floor-same-output.ts); the last two write their lines to a file as our server does.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Measured } from './load.ts';
import { benchFloor, startExpressFloor, startFailureFloor, startSameOutputFloor } from './floors.ts';
import type { BenchRoute } from './routes.ts';
import type { RunningServer } from '../harness/spawn.ts';

export type LoadFloor = (
  floor: RunningServer,
  routes: BenchRoute[],
  who: string,
  logBytes?: () => number,
) => Promise<Map<string, Measured>>;

export interface FixedAndFailureFloors {
  fixedPage: Measured;
  express404: Measured;
  failure: Measured;
  /** Our 404's and our stored page's answers, the same bytes and headers, on bare Express and pino-http. */
  sameOutput404: Measured;
  sameOutputPage: Measured;
  peakRssMb: { express: number; failure: number; sameOutput: number };
}

/** For the bench's watchdog: the fixed page, the 404, the failure floor's error page and the two same-output answers. */
export const FIXED_AND_FAILURE_LOAD_RUNS = 5;

const EXPRESS_ROUTES: BenchRoute[] = [
  { id: 'fixed-page', label: 'fixed 10 KB page', path: '/page', expect: 200, floorPath: '/page' },
  { id: 'express-404', label: "Express's own 404", path: '/no-such-page', expect: 404, floorPath: '/no-such-page' },
];
const FAILURE_ROUTES: BenchRoute[] = [{ id: 'failure', label: 'digest error page', path: '/error', expect: 500, floorPath: '/error' }];
const SAME_OUTPUT_ROUTES: BenchRoute[] = [
  { id: 'same-404', label: 'our 404, same output', path: '/no-such-page', expect: 404, floorPath: '/no-such-page' },
  { id: 'same-page', label: 'our stored page, same output', path: '/page', expect: 200, floorPath: '/page' },
];

/** `pages`: what our server answered for the 404 and the stored page, for the same-output floor. */
export async function benchFixedAndFailureFloors(
  load: LoadFloor,
  cpus: string | undefined,
  pages: { notFound: string; stored: string },
): Promise<FixedAndFailureFloors> {
  const express = await benchFloor(
    () => startExpressFloor(cpus),
    (floor) => load(floor, EXPRESS_ROUTES, 'bare express'),
  );
  const logDir = mkdtempSync(join(tmpdir(), 'bench-failure-floor-'));
  const logFile = join(logDir, 'floor.log');
  try {
    const failure = await benchFloor(
      () => startFailureFloor(logFile, cpus),
      (floor) => load(floor, FAILURE_ROUTES, 'failure floor', () => statSync(logFile).size),
    );
    const sameLog = join(logDir, 'same-output.log');
    const same = await benchFloor(
      () => startSameOutputFloor(pages, sameLog, cpus),
      (floor) => load(floor, SAME_OUTPUT_ROUTES, 'same output', () => statSync(sameLog).size),
    );
    return {
      fixedPage: express.results.get('fixed-page')!,
      express404: express.results.get('express-404')!,
      failure: failure.results.get('failure')!,
      sameOutput404: same.results.get('same-404')!,
      sameOutputPage: same.results.get('same-page')!,
      peakRssMb: { express: express.peakRssMb, failure: failure.peakRssMb, sameOutput: same.peakRssMb },
    };
  } finally {
    rmSync(logDir, { recursive: true, force: true });
  }
}
