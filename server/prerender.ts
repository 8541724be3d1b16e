// The build's prerender step (`npm run build`, after React Router's build; docs/caching.md,
// "Prerendered pages"), a process of its own: the built app, in this process on a loopback port,
// answers every path the app's react-router.config.ts lists in `prerender`, through the
// middleware, handler and React Router production runs; only the values of one request are kept
// out of the pages (render/prerender-renderer.ts). The pages are checked, compressed and written under
// dist/prerendered with a manifest the server reads at start-up. Any failure is one line on stderr
// (route, path, digest, source line) and exit 1: the build fails.
import { randomBytes } from 'node:crypto';
import type { PageRenderer } from './render/page-renderer.ts';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApp, createFailures } from './app.ts';
import { ConfigError, loadConfig } from './config/config.ts';
import { APP_ROOT } from './failures/app-root.ts';
import { appFrames } from './failures/digest.ts';
import type { FailureReport } from './failures/recorder.ts';
import { serializeError } from './failures/serialize-error.ts';
import { createSourceMapper } from './failures/source-maps.ts';
import { createProdFrontend } from './assets/frontend.ts';
import { projectRootOf, serverBuildOf } from './assets/build-identity.ts';
import { createHttpServer } from './edge/http-server.ts';
import { createLogger } from './observe/logger.ts';
import { openDatabase } from './data/database.ts';
import { PRERENDER_DIR } from './pages/prerender-manifest.ts';
import { clearPrerendered, writePrerendered } from './pages/prerender-output.ts';
import { prerenderingRenderer } from './render/prerender-renderer.ts';
import { prerenderAll } from './pages/prerender-run.ts';
import { createRouteTable } from './render/route-table.ts';
import { loadAppBuild } from './assets/app-build.ts';

/** A failure's message in the build's line: enough to recognise it; the digest finds the rest. */
const MAX_MESSAGE_CHARS = 200;

/**
 * The configuration production reads, from the build's environment (DIGEST_KEY keys the digests
 * as the server's; PUBLIC_ORIGIN is the origin of a loader's `request.url`), with the build's own
 * settings: no page cache (every page is rendered), and a database in memory unless DATABASE_PATH
 * names one for the loaders to read.
 */
function buildConfig() {
  const env = process.env;
  return loadConfig({ ...env, NODE_ENV: 'production', CACHE_MAX_BYTES: '0', DATABASE_PATH: env.DATABASE_PATH ?? ':memory:' });
}

/** One failure as the build's line says it: what was thrown, its digest, and where (the first frame of the app's own code). */
function describe(error: unknown, digest: string, keyed: boolean): string {
  const { type, message, stack } = serializeError(error);
  const frame = appFrames(stack ?? '', APP_ROOT)[0]
    ?.split(' ')
    .at(-1);
  const text = message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}…` : message;
  const key = keyed ? '' : ' (DIGEST_KEY is not set: a digest of this build alone)';
  return `${type}: ${text}, digest ${digest}${key}, at ${frame ?? 'no source line (nothing of the app on its stack)'}`;
}

async function main(): Promise<number> {
  const startedAt = performance.now();
  let config;
  try {
    config = buildConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`prerender: ${error.message}`);
    return 1;
  }
  const keyed = config.digestKey !== undefined;
  // What the host recorded, by request: the digest and the source-mapped error of its failure line.
  const recorded = new Map<string, FailureReport & { digest: string }>();
  const logger = createLogger(config, { write: () => undefined });
  const { fixStack } = createSourceMapper();
  const reporter = (report: FailureReport & { digest: string }) => void (recorded.has(report.reqId) || recorded.set(report.reqId, report));
  const processFailures = createFailures(config, { logger, fixStack, reporter });
  const nonce = randomBytes(18).toString('base64url');
  let readsOf: (requestId: string) => ReadonlySet<string> | undefined = () => undefined;
  const prerendering = (renderer: PageRenderer) => {
    const wrapped = prerenderingRenderer(renderer, nonce);
    readsOf = wrapped.readsOf;
    return wrapped.renderer;
  };
  // The build this file is part of (dist/server/prerender.js), wherever it was built, and React Router's beside it.
  const root = projectRootOf(import.meta.url);
  // The app built with it, or APP_BUILD's (a test's fixture app: tests/support/build-once.ts).
  const appDir = config.appBuild ?? join(root, 'dist');
  const app = await loadAppBuild(appDir);
  const build = app.serverBuild;
  const frontend = createProdFrontend(app, undefined, fixStack);
  // The build's own SQLite file, DATABASE_URL or not: a build reaches no production database.
  const { db } = await openDatabase({ databasePath: config.databasePath, postgres: undefined }, app.migrations);
  const server = createHttpServer(
    createApp(config, { logger, frontend, db, failures: processFailures, wrapRenderer: prerendering }),
    undefined,
    logger,
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dir = join(appDir, PRERENDER_DIR);
  try {
    const table = createRouteTable(build);
    const { pages, problems } = await prerenderAll({
      origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      host: config.publicOrigin === undefined ? 'localhost' : new URL(config.publicOrigin).host,
      paths: build.prerender,
      routeOf: (path) => table.match(path, false)?.leaf.id ?? 'unmatched',
      readsOf: (requestId) => readsOf(requestId),
      failureOf: (requestId) => {
        const report = recorded.get(requestId);
        return report && describe(report.error, report.digest, keyed);
      },
    });
    if (problems.length > 0) {
      clearPrerendered(dir);
      for (const problem of problems) console.error(`prerender failed: ${problem}`);
      return 1;
    }
    const manifest = await writePrerendered(
      dir,
      { client: frontend.build, server: serverBuildOf(join(root, 'dist'), appDir) },
      pages,
      nonce,
    );
    const answers = Object.values(manifest.pages).reduce((sum, page) => sum + 1 + Object.keys(page.data).length, 0);
    const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
    console.log(`prerendered ${pages.length} pages (${answers} documents and navigation data) into ${PRERENDER_DIR} in ${seconds} s`);
    return 0;
  } finally {
    server.closeAllConnections();
    server.close();
    await db.destroy();
  }
}

// The step itself failing (no client build to serve, say) fails the build too, with its stack.
process.exit(
  await main().catch((error: unknown) => {
    console.error('prerender: the step itself failed:', error);
    return 1;
  }),
);
