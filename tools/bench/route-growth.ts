// Route-table growth (issue 22): the same requests against the demo's table and against it plus
// SYNTHETIC_ROUTES synthetic routes (vite.config.ts), built apart from dist/, in the same run.
// A request should cost what it needs, not what the app's size is: each ratio is the grown
// table's figure over the demo's.
import { BROWSER_HEADERS, startAppServer } from './app-server.ts';
import { buildSnapshot, buildVariant } from './build-snapshot.ts';
import { fetchOnce } from '../harness/http.ts';
import type { RunningServer } from '../harness/spawn.ts';
import { loadRoute, type LoadSettings, type Measured } from './load.ts';
import { firstLoadJs } from './measure.ts';
import { memoryMb } from './proc.ts';
import { STREAMED_PATH } from './routes.ts';
import type { Table } from './table.ts';

export const SYNTHETIC_ROUTES = 1_000;
const STARTUP_SAMPLES = 3;
/** Issue 22's targets: requests keep 0.9× of their req/s, start-up within 1.5×, RSS within 10%, first-load JS within 5 KB. */
const MIN_RPS_RATIO = 0.9;
const MAX_STARTUP_RATIO = 1.5;
const MAX_RSS_RATIO = 1.1;
const MAX_JS_GROWTH_BYTES = 5 * 1024;

interface GrowthRoute {
  id: string;
  label: string;
  expect: number;
  /** A fresh path per request where one path would let a per-path memo stand in for matching. */
  path: (n: number, grown: boolean) => string;
  /** Different pages on the two tables: printed, not held to the target. */
  informative?: boolean;
}

const ROUTES: GrowthRoute[] = [
  { id: 'page', label: 'streamed page', expect: 200, path: () => STREAMED_PATH },
  { id: 'not-found', label: '404 page (fresh path)', expect: 404, path: (n) => `/no-such-page/${n}` },
  { id: 'data', label: '/_data navigation', expect: 200, path: () => '/_data/about?_routes=about' },
  {
    // On the grown table nearly every request is a page's first visit: its memory is shown apart.
    id: 'small-page',
    label: 'small page (fresh path): /about, /synthetic',
    expect: 200,
    path: (n, grown) => (grown ? `/synthetic/${n % SYNTHETIC_ROUTES}/${n}` : `/about?n=${n}`),
    informative: true,
  },
];

export interface TableSide {
  syntheticRoutes: number;
  rows: Record<string, Measured>;
  startupMs: number;
  /** After the rows both tables serve alike: what the target compares. */
  rssMb: number;
  /** After the informative rows too, which serve different pages on the two tables. */
  rssAfterAllMb: number;
  firstLoadJsBytes: number;
}

export interface GrowthReport {
  demo: TableSide;
  grown: TableSide;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Spawn → the first 200 of `/`: what a replica takes before it serves a page. */
async function startupMs(serverEntry: string, cpus: string | undefined): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < STARTUP_SAMPLES; i++) {
    const server = await startAppServer({ logLevel: 'info', serverEntry, cpus });
    const home = await fetchOnce(`${server.url}/`, { headers: { ...BROWSER_HEADERS } });
    runs.push(performance.now() - server.spawnedAt);
    await server.stop();
    if (home.status !== 200) throw new Error(`/ answered ${home.status} on the ${serverEntry} build`);
  }
  return median(runs);
}

async function measureSide(
  serverEntry: string,
  syntheticRoutes: number,
  settings: LoadSettings,
  cpus: string | undefined,
): Promise<TableSide> {
  const startup = await startupMs(serverEntry, cpus);
  const server: RunningServer = await startAppServer({ logLevel: 'info', serverEntry, cpus });
  try {
    const html = (await fetchOnce(`${server.url}/`, { headers: { ...BROWSER_HEADERS } })).body;
    const js = await firstLoadJs(server.url, html);
    const rows: Record<string, Measured> = {};
    const load = async (route: GrowthRoute) => {
      let n = 0;
      const next = () => route.path(n++, syntheticRoutes > 0);
      const measured = await loadRoute(server.pid, server.url + next(), { ...BROWSER_HEADERS }, route.expect, settings, undefined, next);
      rows[route.id] = measured;
      console.log(`  +${String(syntheticRoutes).padEnd(5)} routes  ${route.label.padEnd(28)} ${measured.rps.toFixed(0).padStart(6)} req/s`);
    };
    for (const route of ROUTES.filter((r) => !r.informative)) await load(route);
    const rssMb = memoryMb(server.pid, 'VmRSS');
    for (const route of ROUTES.filter((r) => r.informative)) await load(route);
    return {
      syntheticRoutes,
      rows,
      startupMs: startup,
      rssMb,
      rssAfterAllMb: memoryMb(server.pid, 'VmRSS'),
      firstLoadJsBytes: js.gzipBytes,
    };
  } finally {
    await server.stop();
  }
}

/** Both tables, loaded the same way: the demo's (the bench's frozen dist/) and a build with SYNTHETIC_ROUTES more. */
export async function benchRouteGrowth(settings: LoadSettings, cpus: string | undefined): Promise<GrowthReport> {
  console.log(`bench: building the route table with ${SYNTHETIC_ROUTES} synthetic routes (outside dist/)`);
  const grownBuild = buildVariant({ SYNTHETIC_ROUTES: String(SYNTHETIC_ROUTES) });
  const demo = await measureSide(buildSnapshot().serverEntry, 0, settings, cpus);
  const grown = await measureSide(grownBuild.serverEntry, SYNTHETIC_ROUTES, settings, cpus);
  return { demo, grown };
}

/** Load runs per bench (its watchdog's budget). */
export const GROWTH_LOAD_RUNS = 2 * ROUTES.length;

const verdict = (pass: boolean) => (pass ? 'pass' : 'MISS');

export function growthTable({ demo, grown }: GrowthReport): Table {
  const rows = ROUTES.map((route) => {
    const ratio = grown.rows[route.id]!.rps / demo.rows[route.id]!.rps;
    return [
      route.label,
      demo.rows[route.id]!.rps.toFixed(0),
      grown.rows[route.id]!.rps.toFixed(0),
      `${ratio.toFixed(2)}×`,
      route.informative ? '' : `≥ ${MIN_RPS_RATIO}× ${verdict(ratio >= MIN_RPS_RATIO)}`,
    ];
  });
  const startup = grown.startupMs / demo.startupMs;
  const rss = grown.rssMb / demo.rssMb;
  const js = grown.firstLoadJsBytes - demo.firstLoadJsBytes;
  rows.push(
    [
      'start-up to the first 200 of / (ms)',
      demo.startupMs.toFixed(0),
      grown.startupMs.toFixed(0),
      `${startup.toFixed(2)}×`,
      `≤ ${MAX_STARTUP_RATIO}× ${verdict(startup <= MAX_STARTUP_RATIO)}`,
    ],
    [
      'RSS after the same load (MB)',
      demo.rssMb.toFixed(1),
      grown.rssMb.toFixed(1),
      `${rss.toFixed(2)}×`,
      `≤ ${MAX_RSS_RATIO}× ${verdict(rss <= MAX_RSS_RATIO)}`,
    ],
    [
      'RSS after the small-page row too (MB)',
      demo.rssAfterAllMb.toFixed(1),
      grown.rssAfterAllMb.toFixed(1),
      `${(grown.rssAfterAllMb / demo.rssAfterAllMb).toFixed(2)}×`,
      '',
    ],
    [
      'first-load JS of / (KB gzip)',
      (demo.firstLoadJsBytes / 1024).toFixed(1),
      (grown.firstLoadJsBytes / 1024).toFixed(1),
      `+${(js / 1024).toFixed(1)} KB`,
      `≤ +5 KB ${verdict(js <= MAX_JS_GROWTH_BYTES)}`,
    ],
  );
  return {
    headers: [
      'route-table growth',
      `demo (+${demo.syntheticRoutes} routes)`,
      `+${grown.syntheticRoutes} synthetic routes`,
      'ratio',
      'target',
    ],
    numeric: [false, true, true, true, false],
    rows,
  };
}
