// Issue 37's floors besides the fixed page (which the stored-page row's rounds load: cases.ts),
// loaded once each: Express's own 404 (floor-express.ts), the failure floor's digest error page
// (floor-failure.tsx), and our 404 and stored page's own answers on bare Express and pino-http
// (floor-same-output.ts); the last two write their lines to a file as our server does.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Measured, LoadSettings } from './load.ts';
import { benchFloor, startFailureFloor, startSameOutputFloor } from './floors.ts';
import { loadOnce, type BenchServer } from './rounds.ts';

export interface FixedAndFailureFloors {
  express404: Measured;
  failure: Measured;
  /** Our 404's and our stored page's answers, the same bytes and headers, on bare Express and pino-http. */
  sameOutput404: Measured;
  sameOutputPage: Measured;
  peakRssMb: { failure: number; sameOutput: number };
}

/** For the bench's watchdog: Express's 404, the failure floor's error page and the two same-output answers. */
export const FIXED_AND_FAILURE_LOAD_RUNS = 4;

/**
 * `express`: the fixed-page floor, running for the stored page's rounds; `pages`: what our server
 * answered for the 404 and the stored page, for the same-output floor.
 */
export async function benchFixedAndFailureFloors(
  express: BenchServer,
  settings: LoadSettings,
  cpus: string | undefined,
  pages: { notFound: string; stored: string },
): Promise<FixedAndFailureFloors> {
  const express404 = await loadOnce('express', "Express's own 404", express, '/no-such-page', 404, settings);
  const logDir = mkdtempSync(join(tmpdir(), 'bench-failure-floor-'));
  try {
    const logFile = join(logDir, 'floor.log');
    const failure = await benchFloor(
      () => startFailureFloor(logFile, cpus),
      (server) => loadOnce('failure', 'digest error page', { server, logBytes: () => statSync(logFile).size }, '/error', 500, settings),
    );
    const sameLog = join(logDir, 'same-output.log');
    const same = await benchFloor(
      () => startSameOutputFloor(pages, sameLog, cpus),
      async (server) => {
        const running = { server, logBytes: () => statSync(sameLog).size };
        return {
          notFound: await loadOnce('same', 'our 404, same output', running, '/no-such-page', 404, settings),
          page: await loadOnce('same', 'our stored page, same', running, '/page', 200, settings),
        };
      },
    );
    return {
      express404,
      failure: failure.results,
      sameOutput404: same.results.notFound,
      sameOutputPage: same.results.page,
      peakRssMb: { failure: failure.peakRssMb, sameOutput: same.peakRssMb },
    };
  } finally {
    rmSync(logDir, { recursive: true, force: true });
  }
}
