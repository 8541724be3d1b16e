// What the bench loads: each of our routes, its expected status, and the path on the
// Express + React floor that does the same job (its page, its error path, its 404).

export interface BenchRoute {
  id: string;
  label: string;
  path: string;
  expect: number;
  /** The counterpart on the Express + React floor (tools/bench/floor-react.ts). */
  floorPath: string;
  /** A failure path: its p99 has a target (see targets.ts). */
  failure?: boolean;
}

/**
 * The page both sides render: an h1 and one Suspense section resolved after this delay. Long
 * enough to be a real second flush, short enough that the row measures CPU rather than the
 * wait (at 32 connections the delay alone would allow 1,600 req/s).
 */
export const STREAMED_MS = 20;
export const STREAMED_PATH = `/_diag/slow?ms=${STREAMED_MS}`;

export function benchRoutes(assetPath: string): BenchRoute[] {
  return [
    {
      id: 'page',
      label: `streamed page (${STREAMED_MS} ms section)`,
      path: STREAMED_PATH,
      expect: 200,
      floorPath: `/slow?ms=${STREAMED_MS}`,
    },
    { id: 'server-error', label: 'server error page', path: '/_diag/server-error', expect: 500, floorPath: '/error', failure: true },
    { id: 'stream-error', label: 'mid-stream error', path: '/_diag/stream-error', expect: 200, floorPath: '/stream-error' },
    { id: 'api-error', label: 'JSON error', path: '/_diag/api-error', expect: 500, floorPath: '/api/error', failure: true },
    { id: 'not-found', label: '404 page', path: '/no-such-page', expect: 404, floorPath: '/no-such-page', failure: true },
    { id: 'asset', label: 'static asset', path: assetPath, expect: 200, floorPath: assetPath },
  ];
}

/**
 * The floor serves the entry script its own start-up read from the manifest: ask it, rather
 * than assume, since the build in this shared tree can change between the two processes.
 */
export function withFloorAsset(routes: BenchRoute[], floorAssetPath: string): BenchRoute[] {
  return routes.map((route) => (route.id === 'asset' ? { ...route, floorPath: floorAssetPath } : route));
}
