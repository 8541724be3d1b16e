// Issue 37's two floors, loaded as the other floors are (run.ts loadAll): bare Express's fixed
// 10 KB page and its own 404 (floor-express.ts), and the failure floor's digest error page
// (floor-failure.tsx), whose pino lines go to a file as our server's do.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Measured } from './load.ts';
import { benchFloor, startExpressFloor, startFailureFloor } from './floors.ts';
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
  peakRssMb: { express: number; failure: number };
}

/** For the bench's watchdog: the fixed page, the 404 and the failure floor's error page. */
export const FIXED_AND_FAILURE_LOAD_RUNS = 3;

const EXPRESS_ROUTES: BenchRoute[] = [
  { id: 'fixed-page', label: 'fixed 10 KB page', path: '/page', expect: 200, floorPath: '/page' },
  { id: 'express-404', label: "Express's own 404", path: '/no-such-page', expect: 404, floorPath: '/no-such-page' },
];
const FAILURE_ROUTES: BenchRoute[] = [{ id: 'failure', label: 'digest error page', path: '/error', expect: 500, floorPath: '/error' }];

export async function benchFixedAndFailureFloors(load: LoadFloor, cpus: string | undefined): Promise<FixedAndFailureFloors> {
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
    return {
      fixedPage: express.results.get('fixed-page')!,
      express404: express.results.get('express-404')!,
      failure: failure.results.get('failure')!,
      peakRssMb: { express: express.peakRssMb, failure: failure.peakRssMb },
    };
  } finally {
    rmSync(logDir, { recursive: true, force: true });
  }
}
