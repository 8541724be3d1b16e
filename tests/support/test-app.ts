import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express, { type Express, type RequestHandler } from 'express';
import { afterAll, beforeAll } from 'vitest';
import * as appRenderer from '../../client/entry-server.tsx';
import type { Renderer } from '../../shared/page-seam.ts';
import { createApp, type AppDeps } from '../../server/app.ts';
import { createDigester } from '../../server/failures/digest.ts';
import { createErrorHandler } from '../../server/error-pages/error-handler.ts';
import { createFailureRecorder } from '../../server/failures/recorder.ts';
import { loadConfig, type Config } from '../../server/config/config.ts';
import { createProdFrontend } from '../../server/assets/frontend.ts';
import { createHttpServer, SERVER_LIMITS } from '../../server/edge/http-server.ts';
import { createLogger } from '../../server/observe/logger.ts';
import { createRefusalSummary, type RefusalSummary } from '../../server/observe/refusal-summary.ts';
import { ServerLog } from '../../tools/harness/server-log.ts';
import { openDatabase } from '../../server/writes/database.ts';
import { migrations } from '../../client/migrations.server.ts';
import type { Database } from '../../shared/database.ts';

export const DIAG_TOKEN = 'test-diagnostics-token-0123456789';
export const DIAG = { 'x-diagnostics-token': DIAG_TOKEN };
export const CLIENT_DIR = join(import.meta.dirname, '../../dist/client');

export interface TestApp {
  app: Express;
  config: Config;
  /** Its own database, migrated: in memory unless the env's DATABASE_PATH names a file. */
  db: Database;
  logs: ServerLog;
  /** The app's 429 summary: flush() writes the counts it holds, as the process does at exit. */
  refusals: RefusalSummary;
  /** Only after listen(). */
  url: string;
  listen(): Promise<string>;
  close(): Promise<void>;
}

/**
 * The real app over the built client, logging into memory; production mode unless told.
 * `renderer` swaps the app's route table for a test's (createRenderer in client/entry-server.tsx).
 * `refusalWindowMs` shortens the 429 summary's window for tests that wait for it to close.
 */
export function createTestApp(
  env: Record<string, string> = {},
  deps: Partial<AppDeps> = {},
  renderer: Renderer = appRenderer,
  refusalWindowMs?: number,
): TestApp {
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
  const frontend = createProdFrontend(CLIENT_DIR, renderer);
  const refusals = deps.refusals ?? createRefusalSummary(logger, refusalWindowMs);
  const db = deps.db ?? openDatabase(config.databasePath, migrations).db;
  const app = createApp(config, { logger, frontend, refusals, ...deps, db });
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
          if (deps.db === undefined) db.close();
          resolve();
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
 */
export function createBareApp(reqId: string, route: RequestHandler): { app: Express; logs: ServerLog } {
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
  app.use(createErrorHandler({ config, failures, loadRenderer: () => Promise.resolve(appRenderer) }));
  return { app, logs };
}
