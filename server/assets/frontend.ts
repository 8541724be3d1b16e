import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type RequestHandler } from 'express';
import type { ServerBuild } from 'react-router';
import { createSourceMapper } from '../failures/source-maps.ts';
import { notFound } from '../failures/errors.ts';
import { servePrecompressed } from './precompressed-assets.ts';
import { servePublicFiles } from './public-files.ts';
import { closeHmr, listenForHmr } from './hmr-listener.ts';
import { currentCompileErrors } from './hmr-errors.ts';
import { serveSharedAssets } from './shared-assets.ts';
import { ASSETS_ROUTE } from '../observe/route-label.ts';
import type { Migration } from '../../shared/database.ts';
import type { AppBuild } from './app-build.ts';
import { APP_MODULES } from './app-modules.ts';
import { inlineStylesOf, type InlineStyles } from './inline-styles.ts';

// The one place where dev and production differ: where the client's files come from and how
// the app's build (React Router's ServerBuild) is loaded. Dev-only packages (vite) are imported dynamically.

export interface Frontend {
  /** Serves the client's files: Vite's dev middleware, or the built assets. */
  readonly middleware: RequestHandler;
  /** The app's migrations (docs/data.md) and its instrumentation module (its failure hook), as the app has them. */
  readonly migrations: readonly Migration[];
  readonly instrumentation: unknown;
  /** Names the release: React Router's version of the client build's manifest (a hash of it), `dev` in development. */
  readonly build: string;
  /** The app's build: the one built, or in development the latest edit's. */
  loadBuild(): Promise<ServerBuild>;
  /** Built only: the stylesheets documents carry written in (server/render/document-head.ts). */
  readonly inlineStyles?: InlineStyles;
  /** Built only: maps a failure's stack to the source files through the shipped source maps. */
  fixStack?(error: unknown): void;
  close(): Promise<void>;
}

/** React Router's server build, as its Vite plugin names it in development (vite.config.ts). */
const SERVER_BUILD = 'virtual:react-router/server-build';
/** Built files have content hashes in their names, so they never change: cache for a year. */
const IMMUTABLE_MAX_AGE = '1y';
/**
 * `/assets` names the folder, not a file: it is sent on to `/assets/` (a 404), as serve-static
 * did. A 301 without Cache-Control is cacheable for as long as a cache likes (RFC 9111 §4.2.2),
 * browsers keep permanent redirects indefinitely, and nothing gains from keeping this one.
 */
const FOLDER_REDIRECT_CACHE_CONTROL = 'no-store';

/** Where the built assets are served. */
const ASSETS = '/assets';

/**
 * Production: the built client in `clientDir`, its manifest read once at start-up. With
 * `sharedAssetsDir`, assets this build lacks are served from there (see shared-assets.ts).
 */
export function createProdFrontend(
  { clientDir, serverBuild, migrations, instrumentation }: AppBuild,
  sharedAssetsDir?: string,
  fixStack: (error: unknown) => void = createSourceMapper().fixStack,
): Frontend {
  // redirect: false: a path that resolves to a folder (`/assets/x/..`) is a 404, not a 301 to it.
  const options = { immutable: true, maxAge: IMMUTABLE_MAX_AGE, index: false, redirect: false };
  const router = express.Router();
  // Labelled for the access line, where served assets log at debug (access-log.ts).
  router.use(ASSETS, (req, res, next) => {
    res.locals.route = ASSETS_ROUTE;
    if (res.locals.target?.path !== ASSETS || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    res.status(301).set({ Location: '/assets/', 'Cache-Control': FOLDER_REDIRECT_CACHE_CONTROL }).end();
  });
  // Each text asset also exists compressed (vite.config.ts): the file the client accepts is sent.
  router.use(ASSETS, servePrecompressed(join(clientDir, 'assets'), options));
  // Not express.static: it follows symlinks and serves subfolders (see shared-assets.ts).
  if (sharedAssetsDir !== undefined) router.use(ASSETS, serveSharedAssets(sharedAssetsDir));
  // A file the build lacks is the host's 404, one answer for every name: never the app's 404
  // page, which React Router would render with its scripts and the path written into it
  // (docs/security.md: a symlink or a traversal is answered as an unknown asset).
  router.use(ASSETS, (_req, _res, next) => next(notFound()));
  const publicFiles = servePublicFiles(clientDir);
  // Only what is under /assets enters the router (its mount path matches case-insensitively):
  // a router's dispatch loop cost every other request, a page or a 404, on its way past.
  const middleware: RequestHandler = (req, res, next) => {
    const path = res.locals.target!.path;
    if (path.length >= ASSETS.length && path.slice(0, ASSETS.length).toLowerCase() === ASSETS && (path[ASSETS.length] ?? '/') === '/')
      return router(req, res, next);
    publicFiles(req, res, next);
  };
  return {
    middleware,
    migrations,
    instrumentation,
    build: serverBuild.assets.version,
    loadBuild: () => Promise.resolve(serverBuild),
    inlineStyles: inlineStylesOf(join(clientDir, 'assets'), ASSETS),
    fixStack,
    close: () => Promise.resolve(),
  };
}

/**
 * Dev: Vite in middleware mode with HMR and React Router's plugin (vite.config.ts): the build is
 * loaded through Vite on each request, so an edit is in the next one, and an edit of a loader or
 * action revalidates the open page's data (React Router's own hot data revalidation). Vite's
 * module runner maps stacks to the sources as errors are made.
 */
export async function createDevFrontend(root: string, host: string, hmrPort: number, appDirectory: string): Promise<Frontend> {
  const { createServer } = await import('vite');
  // HMR listens on a WebSocket port of its own (HMR_PORT: two dev servers need two), at the
  // app's own address (hmr-listener.ts). Vite attaches to that server and tells the browser the port.
  const hmr = await listenForHmr(host, hmrPort);
  const vite = await createServer({
    root,
    server: { middlewareMode: true, ws: { server: hmr, port: hmrPort } },
    appType: 'custom',
    plugins: [currentCompileErrors()],
  }).catch(async (error: unknown) => {
    await closeHmr(hmr);
    throw error;
  });
  // The app's own server modules, as the build takes them (vite/react-router-host.ts), loaded through Vite as the app is.
  const appModule = (file: string) => {
    const path = join(root, appDirectory, file);
    return existsSync(path) ? vite.ssrLoadModule(path) : Promise.resolve(undefined);
  };
  const [migrationsModule, instrumentation] = await Promise.all(Object.values(APP_MODULES).map(appModule));
  return {
    middleware: vite.middlewares as unknown as RequestHandler,
    migrations: (migrationsModule as { migrations?: readonly Migration[] } | undefined)?.migrations ?? [],
    instrumentation,
    build: 'dev',
    loadBuild: () => vite.ssrLoadModule(SERVER_BUILD) as Promise<ServerBuild>,
    close: () => vite.close().finally(() => closeHmr(hmr)),
  };
}
