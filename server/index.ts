// The process entry, and the only place that listens, handles signals and exits:
// config → logger → database → frontend → createApp → listen; on SIGTERM/SIGINT drain, close
// the database, flush, exit.
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { createApp, createFailures } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config/config.ts';
import { sharesThroughRedis } from './config/cache-config.ts';
import type { FailureRecorder } from './failures/recorder.ts';
import { serializeError } from './failures/serialize-error.ts';
import { createSourceMapper } from './failures/source-maps.ts';
import { createDevFrontend, createProdFrontend, type Frontend } from './assets/frontend.ts';
import { projectRootOf, serverBuildOf as serverBuild } from './assets/build-identity.ts';
import { PRERENDER_DIR, readPrerendered } from './pages/prerender-manifest.ts';
import { createHttpServer } from './edge/http-server.ts';
import { publishAssets } from './assets/shared-assets.ts';
import { createLogger, flushLogs } from './observe/logger.ts';
import { createRefusalSummary } from './observe/refusal-summary.ts';
import { createDrain } from './edge/shutdown.ts';
import { LINE_LEVEL } from './observe/log-levels.ts';
import { LISTENING_PREFIX, STOPPED_MESSAGE } from '../shared/log-line.ts';
import { closeDatabase, openAppDatabase } from './data/database.ts';
import { createDatabaseSessionStore } from './data/database-sessions.ts';
import { createSessions } from './writes/session.ts';
import { sayWhereSessionsAre } from './writes/session-store.ts';
import { sessionSecrets } from './writes/session-secret.ts';
import { loadAppBuild } from './assets/app-build.ts';
import reactRouterConfig from '../react-router.config.ts';
import { loadFailureHook } from './failures/failure-hook.ts';
import { openFileFolders } from './writes/file-folders.ts';
import { requestTelemetry } from './telemetry/request-telemetry.ts';

/** The project root: this file runs from server/ in dev and from dist/server/ when built. */
const projectRoot = () => projectRootOf(import.meta.url);

/** The app build this process serves: the one beside it (dist/), or APP_BUILD's. */
const appBuildDir = (config: Config) => config.appBuild ?? join(projectRoot(), 'dist');

/** The built server's identity (assets/build-identity.ts); development: 'dev'. */
function serverBuildOf(config: Config): string {
  return config.isProduction ? serverBuild(join(projectRoot(), 'dist'), appBuildDir(config)) : 'dev';
}

/** The pages `npm run build` prerendered, when this is that build (docs/caching.md); development never serves them. */
function prerenderedPages(config: Config, release: { client: string; server: string }, logger: Logger) {
  if (!config.isProduction) return undefined;
  const dir = join(appBuildDir(config), PRERENDER_DIR);
  const manifest = readPrerendered(dir, release, logger);
  return manifest && { dir, manifest };
}

/** A boot that cannot go on: one line with the error's code, flushed, and exit 1. */
async function stopBoot(logger: Logger, error: unknown, message: string): Promise<never> {
  logger[LINE_LEVEL.bootFailure]({ code: (error as NodeJS.ErrnoException).code }, message);
  await flushLogs(logger);
  process.exit(1);
}

/** `fixStack`: production's source mapper (dist's .map files); dev maps stacks through Vite instead. */
async function createFrontend(config: Config, logger: Logger, fixStack: (error: unknown) => void): Promise<Frontend> {
  const root = projectRoot();
  if (!config.isProduction) return createDevFrontend(root, config.host, config.hmrPort, reactRouterConfig.appDirectory);
  // The app built beside this file (vite.config.ts), or the one APP_BUILD names.
  const app = await loadAppBuild(appBuildDir(config));
  const { clientDir } = app;
  if (config.sharedAssetsDir !== undefined) {
    try {
      const copied = publishAssets(join(clientDir, 'assets'), config.sharedAssetsDir);
      logger[LINE_LEVEL.lifecycle]({ sharedAssetsDir: config.sharedAssetsDir, copied }, 'assets published to the shared directory');
    } catch (error) {
      await stopBoot(logger, error, `cannot publish assets to SHARED_ASSETS_DIR=${config.sharedAssetsDir}: ${(error as Error).message}`);
    }
  }
  return createProdFrontend(app, config.sharedAssetsDir, fixStack);
}

/**
 * A fault outside any request: recorded as every failure is (failures/recorder.ts), flushed (the
 * log, and Sentry's or OTLP's last batch: `flushTelemetry`), then exit so we restart. The app's
 * failure hook gets it too, and up to FAILURE_HOOK_TIMEOUT_MS to export it.
 */
function handleProcessFaults(logger: Logger, failures: FailureRecorder, flushTelemetry: () => Promise<unknown>): void {
  const fault = async (kind: string, error: unknown) => {
    const { hooked } = failures.fault(kind, error);
    await Promise.all([hooked, flushLogs(logger), flushTelemetry()]);
    process.exit(1);
  };
  process.on('uncaughtException', (error) => void fault('uncaughtException', error));
  process.on('unhandledRejection', (reason) => void fault('unhandledRejection', reason));
}

/**
 * Node prints process warnings (deprecations, MaxListenersExceeded…) to stderr as text; its
 * printer is the one 'warning' listener it installs. Replaced, they are log lines like the rest.
 */
function routeProcessWarnings(logger: Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) =>
    logger[LINE_LEVEL.lifecycleWarning]({ error: serializeError(warning) }, `node warning: ${warning.name}`),
  );
}

/**
 * The /metrics server on its own port and address, loopback by default (METRICS_HOST, see
 * metrics.ts and config.ts); a port in use is fatal like the app's.
 */
function listenForMetrics(config: Config, logger: Logger, server: Server): Server {
  const { metricsHost, metricsPort } = config;
  const host = metricsHost.includes(':') ? `[${metricsHost}]` : metricsHost;
  server.once('error', (error) => void stopBoot(logger, error, `cannot listen for metrics on ${host}:${metricsPort}: ${error.message}`));
  server.listen(metricsPort, metricsHost, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : metricsPort;
    logger[LINE_LEVEL.lifecycle]({ metricsHost, metricsPort: port }, `metrics on http://${host}:${port}/metrics`);
  });
  return server;
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  // Loaded only when configured, like Redis's client and pg: they were a third of a boot (docs/performance.md, "Boot").
  const metricsModule = config.metricsPort === undefined ? undefined : await import('./observe/metrics.ts');
  const metrics = metricsModule?.createMetrics(config);
  // OTLP export (OTEL_EXPORTER_OTLP_ENDPOINT): OpenTelemetry's SDK is loaded only then; its logs take every line.
  const otel =
    config.otel &&
    (await (await import('./telemetry/otel.ts')).startOtelTracing(config.otel, { ...config, sentryDsn: config.sentry?.dsn }));
  const logger = createLogger(config, undefined, metrics, otel?.exportLine);
  const exportFailures = otel && (await import('./telemetry/export-failures.ts')).sayExportFailures(logger);
  const sentry = config.sentry ? await import('./telemetry/sentry.ts') : undefined;
  const telemetry = requestTelemetry(otel, sentry, config);
  const { fixStack } = createSourceMapper();
  // The app first: its failure hook and migrations are its own (server/assets/app-build.ts).
  const frontend = await createFrontend(config, logger, fixStack);
  const appHook = await loadFailureHook(logger, "the app's instrumentation.server.ts", () => Promise.resolve(frontend.instrumentation));
  // The fleet's state (REDIS_URL) and stored pages (CACHE_REDIS_URL); without them each process keeps its own.
  const fleet = sharesThroughRedis(config.cache)
    ? (await import('./fleet/fleet-connections.ts')).connectFleet(config.cache, logger, metrics)
    : undefined;
  // One recorder for the process: its faults and its requests' failures (server/app.ts).
  const failures = createFailures(config, {
    logger,
    fixStack,
    metrics,
    onFailure: appHook,
    reporter: telemetry?.report,
    faultReporter: sentry?.reportFault,
    reportProofs: fleet?.spentProofs && { spent: fleet.spentProofs },
  });
  handleProcessFaults(logger, failures.recorder, () => Promise.all([sentry?.closeSentry(), otel?.shutdown()]));
  routeProcessWarnings(logger);
  if (config.digestKey === undefined && config.isProduction) {
    logger[LINE_LEVEL.lifecycleWarning]('DIGEST_KEY is not set: digests will differ between processes and releases');
  }
  if (config.sessionSecrets === undefined && config.isProduction) {
    logger[LINE_LEVEL.lifecycleWarning](
      'SESSION_SECRET is not set: session ids are signed with a random key per process, so a session holds on one replica and ends at a restart',
    );
  }
  if (config.publicOrigin === undefined && config.isProduction) {
    logger[LINE_LEVEL.lifecycleWarning](
      "PUBLIC_ORIGIN is not set: same-origin decisions (redirect targets) use the request's Host and protocol",
    );
  }

  const files = await openFileFolders(config).catch((error: Error) => stopBoot(logger, error.cause, error.message));
  const db = await openAppDatabase(config, frontend.migrations, logger);
  const sessions = createSessions(config, fleet?.sessions ?? createDatabaseSessionStore(db, logger), sessionSecrets(config));
  sayWhereSessionsAre(config, sessions.kind, logger);
  const drain = createDrain(logger, { delayMs: config.shutdownDelayMs, graceMs: config.shutdownGraceMs });
  metrics?.trackReadiness(drain.isShuttingDown);
  const refusals = createRefusalSummary(logger);
  const serverBuild = serverBuildOf(config);
  const server = createHttpServer(
    createApp(config, {
      logger,
      frontend,
      db,
      files,
      sessions,
      isShuttingDown: drain.isShuttingDown,
      telemetry,
      metrics,
      refusals,
      failures,
      cacheStore: fleet?.pages && (await import('./pages/redis-store.ts')).createRedisStore(fleet.pages, logger),
      invalidations: fleet?.invalidations,
      windows: fleet?.windows,
      serverBuild,
      prerendered: prerenderedPages(config, { client: frontend.build, server: serverBuild }, logger),
    }),
    undefined,
    logger,
  );
  const metricsServer = metrics && metricsModule && listenForMetrics(config, logger, metricsModule.createMetricsServer(metrics));

  const stop = async (signal: string) => {
    const clean = await drain.drain(server, signal);
    metricsServer?.close();
    metricsServer?.closeAllConnections();
    await frontend.close();
    // After the drain: no request is left to use it (bounded: data/database.ts's closeDatabase).
    await closeDatabase(db, logger);
    await fleet?.close();
    // Sentry's client flushes only on beforeExit, which a signal never reaches.
    if (sentry) await sentry.closeSentry();
    refusals.flush(); // counts of refusals not yet summarised, before the last line
    exportFailures?.flush(); // failed exports the minute's window still holds, likewise
    logger[LINE_LEVEL.lifecycle]({ clean }, STOPPED_MESSAGE);
    // The last spans and log records, "stopped" among them (bounded: telemetry/otel.ts). Whether
    // that last batch fails goes unsaid: "stopped" is the last line (docs/operating.md, "Traces").
    await otel?.shutdown();
    // Every queued line, "stopped" last, within the destination's deadline (log-destination.ts).
    await flushLogs(logger);
    process.exit(clean ? 0 : 1);
  };
  // `on`, not `once`: a second signal must reach our handler (which ignores it), not Node's
  // default, which would kill the process mid-drain. See shutdown.ts.
  let stopping: Promise<void> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) void drain.drain(server, signal);
    else stopping = stop(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  server.once('error', (error) => void stopBoot(logger, error, `cannot listen on ${config.host}:${config.port}: ${error.message}`));
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger[LINE_LEVEL.lifecycle](
      { host: config.host, port, env: config.nodeEnv },
      `${LISTENING_PREFIX}http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`,
    );
  });
}

// Only as the process's entry (what Node was asked to run), never when imported for its exports.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
