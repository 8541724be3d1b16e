import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type ErrorRequestHandler, type Express, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { createClientErrorsRouter } from './telemetry/client-errors.ts';
import type { Config } from './config/config.ts';
import { createDiagnosticsRouter } from './pages/diagnostics.ts';
import { createDigester, type Digester } from './failures/digest.ts';
import { createErrorHandler } from './error-pages/error-handler.ts';
import { createFailureRecorder, type FailureRecorder, type RecorderDeps } from './failures/recorder.ts';
import { notFound } from './failures/errors.ts';
import { createReportProofs, type ReportProofOptions, type ReportProofs } from './failures/report-proof.ts';
import type { Frontend } from './assets/frontend.ts';
import type { Database } from '../shared/database.ts';
import type { OnFailure } from '../shared/failure-event.ts';
import { isolateFailureHook, type CallFailureHook } from './failures/failure-hook.ts';
import { createTunnelRouter } from './telemetry/tunnel.ts';
import { securityHeaders } from './edge/security-headers.ts';
import { HEALTH_PATHS, healthChecks } from './edge/health.ts';
import { routedPath } from './observe/url-path.ts';
import { createAccessLog } from './observe/access-log.ts';
import type { Metrics } from './observe/metrics.ts';
import { createReactRouterHandler } from './render/react-router-handler.ts';
import { createPageRenderer, type PageRenderer } from './render/page-renderer.ts';
import type { RequestTelemetry } from './telemetry/request-telemetry.ts';
import { createStoredPages } from './pages/stored-pages.ts';
import { createRegeneration } from './render/regeneration.ts';
import { createRefusalSummary, type RefusalSummary } from './observe/refusal-summary.ts';
import { normalizeTarget, readTarget } from './edge/request-target.ts';
import { compressResponses } from './assets/compress-responses.ts';
import { refuseCrossSiteWrites } from './edge/cross-site-writes.ts';
import { resolveOrigin } from './edge/request-origin.ts';
import { createClientLimits } from './writes/client-limits.ts';
import type { ClientWindows } from './edge/client-windows.ts';
import { createSessions, type Sessions } from './writes/session.ts';
import { sessionSecrets } from './writes/session-secret.ts';
import { createMemorySessionStore } from './writes/memory-sessions.ts';
import { createMemoryStore, type CacheStore } from './pages/cache-store.ts';
import { createPageCache } from './pages/page-cache.ts';
import { createPageTemplate } from './pages/page-template.ts';
import { createRevalidateEndpoint } from './pages/revalidate-endpoint.ts';
import { servePrerendered } from './pages/prerendered-pages.ts';
import type { PrerenderManifest } from './pages/prerender-manifest.ts';
import type { InvalidationChannel } from './fleet/redis-invalidations.ts';
import { randomBytes } from 'node:crypto';
import type { FileStorage } from '@remix-run/file-storage';
import { createMemoryFileStorage } from '@remix-run/file-storage/memory';

export interface AppDeps {
  logger: Logger;
  frontend: Frontend;
  /** The process's database, opened and migrated once (data/database.ts); loaders and actions get it as `context.db`. */
  db: Database;
  /** Where actions keep files (`context.files`): server/index.ts gives a folder on disk (FILES_DIR); made here in memory when not given. */
  files?: FileStorage;
  /** True once the process has begun to drain; readiness then answers 503. */
  isShuttingDown?: () => boolean;
  /** Sentry or OTLP export or both, when configured: where 5xx failures are reported, and the request's trace. */
  telemetry?: RequestTelemetry;
  /** Prometheus metrics, when METRICS_PORT is set (served apart, see metrics.ts). */
  metrics?: Metrics;
  /** Where 429 refusals are counted instead of logged one by one; flushed by the process at exit. */
  refusals?: RefusalSummary;
  /** Server-held sessions (writes/session.ts); made here, in this process's memory, when not given. */
  sessions?: Sessions;
  /** The process's one failure recorder (server/index.ts builds it for faults and requests); made here when not given. */
  failures?: ProcessFailures;
  /** Without `failures`: the digester, the app's failure hook and the report proofs' options (tests set them). */
  digester?: Digester;
  onFailure?: OnFailure;
  reportProofs?: ReportProofOptions;
  /** Where stored pages live: Redis (server/index.ts, with CACHE_REDIS_URL), else memory of CACHE_MAX_BYTES made here. */
  cacheStore?: CacheStore;
  /** Where invalidations are told to the other replicas (server/index.ts, with REDIS_URL or CACHE_REDIS_URL). */
  invalidations?: InvalidationChannel;
  /** Where per-client rate limits count: Redis (server/index.ts, with REDIS_URL), else each limit's own memory. */
  windows?: ClientWindows;
  /** The cache's clock (ms since the epoch); tests move it. */
  now?: () => number;
  /** The server's own build (server/index.ts hashes it): stored pages are keyed by it and the client's, so a release that changed only loaders never answers with the last one's pages. */
  serverBuild?: string;
  /** Pages prerendered at build, read once at start-up (server/index.ts, production only; docs/caching.md). */
  prerendered?: { dir: string; manifest: PrerenderManifest };
  /** The build's prerender step renders through the app with values of no one request (server/render/prerender-renderer.ts). */
  wrapRenderer?: (renderer: PageRenderer) => PageRenderer;
}

/**
 * Stored pages (docs/caching.md): none with CACHE_MAX_BYTES=0. In development the rule is
 * checked and told but nothing is kept, so an edit shows on the next load.
 */
function pageCache(config: Config, deps: AppDeps) {
  // Development keeps nothing, Redis configured or not: an edit shows on the next load.
  const keeps = config.isProduction || config.nodeEnv === 'test';
  const store = keeps ? (deps.cacheStore ?? createMemoryStore(config.cache.maxBytes, deps.now)) : createMemoryStore(0);
  if (keeps && deps.cacheStore === undefined && config.cache.maxBytes === 0) return undefined;
  // The markers' secret: DIGEST_KEY, one per fleet, so every replica fills every replica's entries.
  const release = `${deps.frontend.build}\0${deps.serverBuild ?? ''}\0${config.release}`;
  const traceShape = deps.telemetry && { sentry: config.sentry !== undefined };
  const template = createPageTemplate(release, config.digestKey ?? randomBytes(32).toString('base64url'), traceShape);
  return createPageCache({ store, channel: deps.invalidations, template, logger: deps.logger, learns: keeps, now: deps.now });
}

/** The recorder of every failure of the process, the proofs of the digests it writes into pages, and the app's hook. */
export interface ProcessFailures {
  recorder: FailureRecorder;
  proofs: ReportProofs;
  onFailure: CallFailureHook | undefined;
}

export interface FailureDeps extends Omit<RecorderDeps, 'digester' | 'proofs' | 'onFailure'> {
  digester?: Digester;
  onFailure?: OnFailure;
  reportProofs?: ReportProofOptions;
}

/** Built once per process (server/index.ts): a fault and a request's failure share one digester, source maps, hook and reporters. */
export function createFailures(config: Config, deps: FailureDeps): ProcessFailures {
  const proofs = createReportProofs(config.digestKey, deps.reportProofs);
  const onFailure = isolateFailureHook(deps.onFailure, deps.logger, config.failureHookTimeoutMs, {
    release: config.release,
    replica: config.replica,
  });
  const recorder = createFailureRecorder({ ...deps, digester: deps.digester ?? createDigester(config.digestKey), proofs, onFailure });
  return { recorder, proofs, onFailure };
}

/** The middleware order below is the table of contents of a request. Nothing listens here. */
export function createApp(config: Config, deps: AppDeps): Express {
  const {
    recorder: failures,
    proofs,
    onFailure,
  } = deps.failures ??
  createFailures(config, {
    logger: deps.logger,
    digester: deps.digester,
    onFailure: deps.onFailure,
    reportProofs: deps.reportProofs,
    reporter: deps.telemetry?.report,
    fixStack: deps.frontend.fixStack,
    metrics: deps.metrics,
  });
  const cache = pageCache(config, deps);
  const sessions = deps.sessions ?? createSessions(config, createMemorySessionStore(), sessionSecrets(config));
  const traceMeta = deps.telemetry?.traceMeta;
  const made = createPageRenderer({
    config,
    failures,
    revalidate: cache?.revalidate,
    build: () => deps.frontend.loadBuild(),
    buildId: deps.frontend.build,
    inlineStyles: deps.frontend.inlineStyles,
    logger: deps.logger,
    db: deps.db,
    uploadDir: config.uploadDir,
    files: deps.files ?? createMemoryFileStorage(),
    limits: createClientLimits(deps.windows),
    traceMeta,
    tracing: deps.telemetry?.tracing,
  });
  const renderer = deps.wrapRenderer?.(made) ?? made;
  const stored =
    cache &&
    createStoredPages({ config, cache, traceMeta, regenerate: createRegeneration({ config, failures, sessions, cache, renderer }) });
  const app = express();
  app.disable('x-powered-by');
  // Every page and error is no-store, and assets get serve-static's own ETag: a hash of each
  // error body would be work no cache can use.
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);

  if (deps.metrics) app.use(deps.metrics.middleware);
  const refusals = deps.refusals ?? createRefusalSummary(deps.logger);
  // Express compiled TRUST_PROXY into this when it was set above: (address, hop) => trusted.
  const trustFn = app.get('trust proxy fn') as (address: string, hop: number) => boolean;
  const trustsPeer = (address: string | undefined) => address !== undefined && trustFn(address, 0);
  // Probes and the browser's relayed telemetry are not traced, as Sentry's own tracing leaves them (server/instrument.ts).
  const untraced = new Set([...HEALTH_PATHS, ...(config.sentry ? [config.sentry.tunnelPath] : [])].map(routedPath));
  if (deps.telemetry?.requestSpans) app.use(deps.telemetry.requestSpans(trustsPeer, untraced));
  app.use(
    createAccessLog({
      logger: deps.logger,
      requestHeaders: config.logRequestHeaders,
      trustProxy: config.trustProxy !== false,
      trustsPeer,
      refusals,
      traceContext: deps.telemetry?.traceContext,
    }),
  );
  app.use(healthChecks(deps.isShuttingDown ?? (() => false)));
  app.use(securityHeaders(config));
  app.use(readTarget);
  app.use(resolveOrigin(config));
  app.use(refuseCrossSiteWrites(config));
  app.use(deps.frontend.middleware);
  // Files like the assets, compressed at build: answered before compression and the page handlers.
  if (deps.prerendered) app.use(servePrerendered(deps.prerendered.dir, deps.prerendered.manifest, deps.logger, traceMeta));
  // After the built assets (already compressed, as files): everything the app itself writes.
  if (config.compressResponses)
    app.use(compressResponses({ maxConcurrent: config.compressMaxConcurrent, onBusy: deps.metrics?.compressionBusy }));
  app.use(createClientErrorsRouter(deps.logger, proofs, config.bodyTimeoutMs, onFailure, deps.windows));
  if (config.sentry !== undefined) app.use(createTunnelRouter(config.sentry, deps.logger, config.bodyTimeoutMs, deps.windows));
  if (config.diagnosticsToken !== undefined) app.use('/_diag', createDiagnosticsRouter(config));
  if (config.cache.revalidateToken !== undefined && cache !== undefined)
    app.use(createRevalidateEndpoint(config.cache.revalidateToken, cache.revalidate, config.bodyTimeoutMs));
  // A page or its data the store holds: answered before any route is matched (docs/caching.md).
  if (stored) app.use(stored.answer);
  // Every page, navigation's data, resource route and form post: React Router's own handler, the
  // host around it. A path no route matches is the app's 404 page, React Router's answer.
  app.use(createReactRouterHandler({ config, sessions, renderer, pages: stored }));
  const errorHandler = createErrorHandler({ config, failures });
  app.use(errorHandler);
  return keepInPipeline(app, errorHandler);
}

type Handle = (req: IncomingMessage, res: ServerResponse, done?: (error?: unknown) => void) => void;

/**
 * Every request goes through the pipeline above: its target is made routable first
 * (request-target.ts), and Express's default handler (finalhandler) is replaced by ours, so
 * even a request that somehow left the middleware unanswered gets our 404 or error page.
 */
function keepInPipeline(app: Express, errorHandler: ErrorRequestHandler): Express {
  const target = app as unknown as { handle: Handle };
  const handle = target.handle.bind(app);
  target.handle = (req, res, done) => {
    normalizeTarget(req);
    handle(req, res, done ?? ((error?: unknown) => errorHandler(error ?? notFound(), req as Request, res as Response, () => {})));
  };
  return app;
}
