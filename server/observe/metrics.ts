import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { LEVEL } from '../../shared/log-line.ts';
import { CLIENT_ERRORS_PATH } from '../../shared/runtime.ts';
import { expressRouteOf, HEALTH_PATHS, HEALTH_ROUTE } from './route-label.ts';
import { requestPath } from './url-path.ts';

/** The fleet's two Redis roles (server/config/cache-config.ts): what a failed call was to. */
export const SHARED_STORES = ['state', 'pages'] as const;
export type SharedStore = (typeof SHARED_STORES)[number];

// Prometheus metrics (prom-client), served by a server of their own on METRICS_PORT so they
// are never public by accident and never pass through the app or its access log. Every label
// value comes from a closed set or a route id: raw paths, digests and request ids would make
// one time series per request and exhaust the Prometheus server.

/**
 * Where a failure happened (docs/deploy.md, "Metrics"): what has a digest, so a 5xx, a process
 * fault, a failed revalidation (the stale page is still answered) or a browser report. A 4xx is
 * an answer, counted by http_request_duration_seconds's status_class alone.
 */
export type FailureKind = 'render' | 'loader' | 'route' | 'process' | 'client_report' | 'revalidation';

export interface Metrics {
  readonly registry: Registry;
  /** First middleware of the app: times every response and counts refusals. */
  readonly middleware: RequestHandler;
  /** Called once per recorded failure with a digest (failures/recorder.ts, process faults); never for a 4xx. */
  failure(kind: FailureKind, status: number | undefined): void;
  /** Called once per log line dropped because stdout was not read (log-destination.ts). */
  logLineDropped(level: string): void;
  /** Called once per answer sent plain because COMPRESS_MAX_CONCURRENT responses were compressing. */
  compressionBusy(): void;
  /** Called once per call to a shared Redis that failed or timed out (server/fleet/redis-connection.ts): the state's (REDIS_URL) or the pages' (CACHE_REDIS_URL). */
  cacheStoreFailure(store: SharedStore): void;
  /** What /readyz answers (server/edge/health.ts): `app_ready` reads it at each scrape. */
  trackReadiness(isShuttingDown: () => boolean): void;
}

/** The process's names, on `app_info` so dashboards can show which release each replica runs. */
export interface MetricsIdentity {
  release: string;
  replica: string;
}

/** Seconds; from a cached asset (~1 ms) to a page held open by the 5 s stream timeout. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Route ids an app defines are a few dozen; past this many, new ones count as "other". */
const MAX_ROUTE_LABELS = 200;
const ROUTE_ID = /^[\w:/.@{}*-]{1,100}$/;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Statuses whose meaning is "we would not do it", by reason. */
const REFUSALS: Record<number, string> = { 413: 'too_large', 414: 'too_large', 429: 'rate_limited', 431: 'too_large' };
/** pino's level names: the values of log_lines_dropped_total's label. */
const LOG_LINE_LEVELS: readonly string[] = Object.keys(LEVEL);

/** The route label: the route id the app set, or a fixed name; never the request's path. */
function routeLabel(req: Request, res: Response, known: Set<string>): string {
  const id = res.locals.route ?? expressRouteOf(req);
  if (id === undefined) {
    const path = requestPath(req, res.locals);
    if (path.startsWith('/assets/')) return 'assets';
    if (HEALTH_PATHS.has(path)) return HEALTH_ROUTE;
    return res.statusCode === 404 ? 'unmatched' : 'none';
  }
  // A 404 is not its route's business unless a page chose it (a product that does not exist).
  if (res.statusCode === 404 && !id.startsWith('page:')) return 'unmatched';
  if (!ROUTE_ID.test(id)) return 'other';
  if (!known.has(id)) {
    if (known.size >= MAX_ROUTE_LABELS) return 'other';
    known.add(id);
  }
  return id;
}

export function createMetrics(identity?: MetricsIdentity): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to the end of its response (streams included), by route id, method and status class.',
    labelNames: ['route', 'method', 'status_class'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const failures = new Counter({
    name: 'app_failures_total',
    help: 'Failures, each counted once: what has a digest (5xx, process faults, revalidations, browser reports; never a 4xx), by HTTP status ("none" for process faults and browser reports) and kind.',
    labelNames: ['status', 'kind'] as const,
    registers: [registry],
  });
  const refused = new Counter({
    name: 'http_requests_refused_total',
    help: 'Requests refused by a limit (rate limit, size).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const droppedLines = new Counter({
    name: 'log_lines_dropped_total',
    help: 'Log lines dropped because stdout was not read and the log buffer (LOG_BUFFER_BYTES) was full, by level.',
    labelNames: ['level'] as const,
    registers: [registry],
  });
  // Every level from zero, so a rate() or an alert sees the series before the first drop.
  for (const level of LOG_LINE_LEVELS) droppedLines.inc({ level }, 0);
  const plainWhenBusy = new Counter({
    name: 'http_responses_uncompressed_busy_total',
    help: 'Answers to clients that accept compression, sent plain because COMPRESS_MAX_CONCURRENT responses were already compressing.',
    registers: [registry],
  });
  const cacheStoreFailures = new Counter({
    name: 'app_cache_store_failures_total',
    help: 'Calls to a shared Redis that failed or timed out, by store: state (REDIS_URL), where a rate limit or report proof was then held by this replica alone; pages (CACHE_REDIS_URL), where a page rendered as without a cache.',
    labelNames: ['store'],
    registers: [registry],
  });
  for (const store of SHARED_STORES) cacheStoreFailures.inc({ store }, 0);
  const open = new Set<ServerResponse>();
  new Gauge({
    name: 'http_active_streams',
    help: 'Responses whose headers are sent and whose body is still being written (streamed pages).',
    registers: [registry],
    collect() {
      let streaming = 0;
      for (const res of open) if (res.headersSent && !res.writableEnded) streaming += 1;
      this.set(streaming);
    },
  });

  let isShuttingDown = () => false;
  new Gauge({
    name: 'app_ready',
    help: 'Whether /readyz answers 200 (1) or 503 while draining (0); with process_start_time_seconds, what the readiness-flapping alert reads.',
    registers: [registry],
    collect() {
      this.set(isShuttingDown() ? 0 : 1);
    },
  });
  if (identity) {
    // One series per process, always 1: joined on instance, it names the release and replica (a deploy shows as a change).
    new Gauge({
      name: 'app_info',
      help: 'This process: its release and replica.',
      labelNames: ['release', 'replica'] as const,
      registers: [registry],
    }).set({ release: identity.release, replica: identity.replica }, 1);
  }

  const failure = (kind: FailureKind, status: number | undefined) =>
    failures.inc({ kind, status: status === undefined ? 'none' : String(status) });
  const routes = new Set<string>();
  const middleware: RequestHandler = (req, res, next) => {
    const started = process.hrtime.bigint();
    open.add(res);
    res.once('close', () => {
      open.delete(res);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const status = res.statusCode;
      const route = routeLabel(req, res, routes);
      duration.observe(
        { route, method: METHODS.has(req.method) ? req.method : 'other', status_class: `${Math.floor(status / 100)}xx` },
        seconds,
      );
      const reason = REFUSALS[status];
      if (reason !== undefined) refused.inc({ reason });
      // Browser reports are logged by client-errors.ts; each accepted one is a failure too.
      if (status === 204 && req.method === 'POST' && requestPath(req, res.locals) === CLIENT_ERRORS_PATH)
        failure('client_report', undefined);
    });
    next();
  };
  const logLineDropped = (level: string) => droppedLines.inc({ level: LOG_LINE_LEVELS.includes(level) ? level : 'other' });
  return {
    registry,
    middleware,
    failure,
    logLineDropped,
    compressionBusy: () => plainWhenBusy.inc(),
    cacheStoreFailure: (store) => cacheStoreFailures.inc({ store }),
    trackReadiness: (check) => (isShuttingDown = check),
  };
}

/** GET /metrics in the Prometheus text format, and nothing else; no logging at all. */
export function createMetricsServer(metrics: Metrics): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    metrics.registry.metrics().then(
      (text) =>
        res
          .writeHead(200, { 'Content-Type': metrics.registry.contentType, 'Cache-Control': 'no-store' })
          .end(req.method === 'HEAD' ? undefined : text),
      () => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics failed'),
    );
  });
}
