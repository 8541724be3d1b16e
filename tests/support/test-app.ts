import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express, { type Express, type RequestHandler } from 'express';
import { afterAll, beforeAll } from 'vitest';
import { createApp, type AppDeps } from '../../server/app.ts';
import { createDigester } from '../../server/failures/digest.ts';
import { createErrorHandler, type ErrorHandlerDeps } from '../../server/error-pages/error-handler.ts';
import { createFailureRecorder } from '../../server/failures/recorder.ts';
import { loadConfig, type Config } from '../../server/config/config.ts';
import { loadAppBuild, type AppBuild } from '../../server/assets/app-build.ts';
import { createProdFrontend } from '../../server/assets/frontend.ts';
import { createHttpServer, SERVER_LIMITS } from '../../server/edge/http-server.ts';
import { createLogger } from '../../server/observe/logger.ts';
import { createRefusalSummary, type RefusalSummary } from '../../server/observe/refusal-summary.ts';
import { ServerLog } from '../../tools/harness/server-log.ts';
import { ROOT } from '../../tools/harness/paths.ts';
import type { Logger } from 'pino';
import { serverBuildOf } from '../../server/assets/build-identity.ts';
import { PRERENDER_DIR, readPrerendered } from '../../server/pages/prerender-manifest.ts';
import type { Database } from '../../shared/database.ts';
import { testAppBuild } from './build-once.ts';
import { migratedInMemory } from './lazy-database.ts';

export const DIAG_TOKEN = 'test-diagnostics-token-0123456789';
export const DIAG = { 'x-diagnostics-token': DIAG_TOKEN };

/**
 * The apps a test serves, built by the run's global setup (build-once.ts): `host`, the tests' own
 * fixture app (tests/apps/host: every host behaviour has a route there), `framework`, an app
 * written as React Router's docs write one (tests/apps/framework), and `demo`, the app in
 * client/ (tests/demo/ only: the host's tests never depend on the demo's pages).
 */
export const APP_BUILDS = { host: testAppBuild('host'), framework: testAppBuild('framework'), demo: join(ROOT, 'dist') };
export type AppName = keyof typeof APP_BUILDS;
/** Loaded once per worker: the tests share their worker's modules (vitest.config.ts, `isolate`). */
const builds: Record<AppName, AppBuild> = {
  host: await loadAppBuild(APP_BUILDS.host),
  framework: await loadAppBuild(APP_BUILDS.framework),
  demo: await loadAppBuild(APP_BUILDS.demo),
};
/** The built browser files of an app. */
export const clientDir = (app: AppName = 'host'): string => builds[app].clientDir;
/** An app's build as loaded (its server build, migrations, files), for a test that makes its own frontend. */
export const appBuild = (app: AppName = 'host'): AppBuild => builds[app];

export interface TestAppOptions {
  /** Which app it serves: `host` unless told. */
  app?: AppName;
  /** A build made from one of those (an app's variant a test needs): served in place of `app`'s. */
  build?: AppBuild;
  /** Serves the pages its build prerendered, as the process does (server/index.ts). */
  prerendered?: boolean;
  /** Shortens the 429 summary's window, for tests that wait for it to close. */
  refusalWindowMs?: number;
}

export interface TestApp {
  app: Express;
  config: Config;
  /** Its own database, in memory, migrated before its first query (./lazy-database.ts). */
  db: Database;
  logs: ServerLog;
  /** The app's 429 summary: flush() writes the counts it holds, as the process does at exit. */
  refusals: RefusalSummary;
  /** Only after listen(). */
  url: string;
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** The pages an app's build prerendered, read as the process reads them (server/index.ts). */
function prerenderedOf(build: AppBuild, logger: Logger) {
  const dir = join(build.dir, PRERENDER_DIR);
  const release = { client: build.serverBuild.assets.version, server: serverBuildOf(join(ROOT, 'dist'), build.dir) };
  const manifest = readPrerendered(dir, release, logger);
  if (manifest === undefined) throw new Error(`${build.dir} has no prerendered pages of this build`);
  return { dir, manifest };
}

/** The real host over a built app (the tests' own unless told), logging into memory; production mode unless told. */
export function createTestApp(env: Record<string, string> = {}, deps: Partial<AppDeps> = {}, options: TestAppOptions = {}): TestApp {
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'debug',
    DIAGNOSTICS_TOKEN: DIAG_TOKEN,
    DIGEST_KEY: 'test-digest-key-0123456789',
    // Never the default file under data/: each app a database of its own (docs/data.md, "Tests").
    DATABASE_PATH: ':memory:',
    ...env,
  });
  const logs = new ServerLog();
  const logger = createLogger(config, logs);
  const build = options.build ?? builds[options.app ?? 'host'];
  const frontend = createProdFrontend(build);
  const refusals = deps.refusals ?? createRefusalSummary(logger, options.refusalWindowMs);
  const db = deps.db ?? migratedInMemory(build.migrations);
  const prerendered = options.prerendered ? prerenderedOf(build, logger) : undefined;
  const app = createApp(config, { logger, frontend, refusals, prerendered, ...deps, db });
  let server: Server | undefined;
  const testApp: TestApp = {
    app,
    config,
    db,
    logs,
    refusals,
    url: '',
    listen: () =>
      new Promise((resolve) => {
        server = createHttpServer(app, SERVER_LIMITS, logger).listen(0, '127.0.0.1', () => {
          testApp.url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
          resolve(testApp.url);
        });
      }),
    close: () =>
      new Promise((resolve) => {
        const closed = () => {
          if (deps.db === undefined) void db.destroy().then(() => resolve());
          else resolve();
        };
        if (!server) return closed();
        server.closeAllConnections();
        server.close(closed);
      }),
  };
  return testApp;
}

/**
 * Call inside a describe: createTestApp's app on a real server (127.0.0.1, port 0) for its
 * tests, closed after them. Its fields are there from the first test on.
 */
export function listeningTestApp(...args: Parameters<typeof createTestApp>): TestApp {
  const host = {} as TestApp;
  beforeAll(async () => {
    Object.assign(host, createTestApp(...args));
    host.url = await host.listen();
  });
  afterAll(() => host.close());
  return host;
}

/**
 * A bare Express app for failures no page produces: one GET route at `/`, then the real failure
 * recorder and error handler, logging into memory, with a fixed request id (no access log).
 * `errorPage`: the error handler's page render or its timeout, for a test that breaks them.
 */
export function createBareApp(
  reqId: string,
  route: RequestHandler,
  errorPage: Pick<ErrorHandlerDeps, 'renderErrorPage' | 'errorPageTimeoutMs'> = {},
): { app: Express; logs: ServerLog } {
  const config = loadConfig({ NODE_ENV: 'production' });
  const logs = new ServerLog();
  const logger = createLogger(config, logs);
  const failures = createFailureRecorder({ digester: createDigester(undefined), logger });
  const app = express();
  app.use((req, _res, next) => {
    req.id = reqId;
    next();
  });
  app.get('/', route);
  app.use(createErrorHandler({ config, failures, ...errorPage }));
  return { app, logs };
}
