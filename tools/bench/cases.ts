// What the bench loads: each case once per side, the side being a server the run started and a
// path on it. Most cases are the bench's own app (tools/bench/app) served by the host and by
// @react-router/express alone from the same build (issue 44, gate 3); the stored page is the
// demo's, against bare Express's fixed page. With --baseline, the previous main's host answers
// the same case on its own routes (it predates the bench app: its diagnostic routes did the job).
import { STORED_PATH } from './stored-page.ts';

/** The servers of a run: see run.ts's startServers. */
export type ServerKey = 'host' | 'reactRouter' | 'demo' | 'fixedPage' | 'main';

export interface Side {
  server: ServerKey;
  path: string;
  expect: number;
}

export interface BenchCase {
  id: string;
  /** Which case the row measures, in the words the table prints. */
  label: string;
  ours: Side;
  floor: Side & { name: string };
  /** The previous main's answer to the same case (--baseline). */
  main?: Side;
  /** The gate's cases are loaded in every round, the others in the first only (run.ts). */
  everyRound: boolean;
  /** A failure path: its p99 has a target (targets.ts). */
  failure?: boolean;
}

/**
 * The streamed page's section resolves after this delay (tools/bench/app/app/routes/streamed.tsx),
 * as the previous main's `/_diag/slow?ms=` did: long enough to be a second flush, short enough
 * that the row measures CPU rather than the wait.
 */
export const STREAMED_MS = 20;
const RR = '@react-router/express';

const both = (path: string, expect: number): [Side, Side & { name: string }] => [
  { server: 'host', path, expect },
  { server: 'reactRouter', path, expect, name: RR },
];

/** `asset`: the bench app's entry script, which only its built page names. */
export function benchCases(asset: string): BenchCase[] {
  const [pageOurs, pageFloor] = both('/', 200);
  const [boomOurs, boomFloor] = both('/boom', 500);
  const [crashOurs, crashFloor] = both('/crash', 500);
  const [missOurs, missFloor] = both('/no-such-page', 404);
  const [streamOurs, streamFloor] = both('/stream-error', 200);
  const [apiOurs, apiFloor] = both('/api/error', 500);
  const [assetOurs, assetFloor] = both(asset, 200);
  return [
    {
      id: 'page',
      label: `streamed page, uncached (h1 + one ${STREAMED_MS} ms Suspense section)`,
      ours: pageOurs,
      floor: pageFloor,
      main: { server: 'main', path: `/_diag/slow?ms=${STREAMED_MS}`, expect: 200 },
      everyRound: true,
    },
    {
      id: 'boundary-error',
      label: 'error page inside a route boundary (loader throws)',
      ours: boomOurs,
      floor: boomFloor,
      everyRound: true,
      failure: true,
    },
    {
      id: 'no-boundary-error',
      label: "error page, no boundary (loader throws; the host's own page)",
      ours: crashOurs,
      floor: crashFloor,
      main: { server: 'main', path: '/_diag/server-error', expect: 500 },
      everyRound: true,
      failure: true,
    },
    { id: 'not-found', label: '404 (no route matches)', ours: missOurs, floor: missFloor, everyRound: true, failure: true },
    {
      id: 'stored-hit',
      label: `stored page HIT (the demo's ${STORED_PATH})`,
      ours: { server: 'demo', path: STORED_PATH, expect: 200 },
      floor: { server: 'fixedPage', path: '/page', expect: 200, name: "bare Express's fixed 10 KB page" },
      main: { server: 'main', path: STORED_PATH, expect: 200 },
      everyRound: true,
    },
    { id: 'stream-error', label: 'section fails after the shell (200)', ours: streamOurs, floor: streamFloor, everyRound: false },
    { id: 'api-error', label: 'resource route throws', ours: apiOurs, floor: apiFloor, everyRound: false, failure: true },
    { id: 'asset', label: "static asset (the app's entry script)", ours: assetOurs, floor: assetFloor, everyRound: false },
  ];
}

/** The sides of a case to load: the previous main's only with a baseline. */
export function sidesOf(benchCase: BenchCase, withMain: boolean): (Side & { role: 'ours' | 'floor' | 'main' })[] {
  const sides: (Side & { role: 'ours' | 'floor' | 'main' })[] = [
    { ...benchCase.ours, role: 'ours' },
    { ...benchCase.floor, role: 'floor' },
  ];
  if (withMain && benchCase.main) sides.push({ ...benchCase.main, role: 'main' });
  return sides;
}
