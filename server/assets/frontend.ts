import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type RequestHandler } from 'express';
import type { PageAssets } from '../../shared/runtime.ts';
import type { BuiltModules, Renderer } from '../../shared/page-seam.ts';
import { createSourceMapper } from '../failures/source-maps.ts';
import { moduleGraphStyles } from './module-graph-styles.ts';
import { serverChangeEvents } from './server-change-events.ts';
import { servePrecompressed } from './precompressed-assets.ts';
import { servePublicFiles } from './public-files.ts';
import { closeHmr, listenForHmr } from './hmr-listener.ts';
import { serveSharedAssets } from './shared-assets.ts';
import { ASSETS_ROUTE } from '../observe/route-label.ts';

// The one place where dev and production differ: where client assets come from and how the
// React renderer is loaded. Dev-only packages (vite) are imported dynamically.

export interface Frontend extends BuiltModules {
  /** Serves the client's files: Vite's dev middleware, or the built assets. */
  readonly middleware: RequestHandler;
  readonly assets: PageAssets;
  /** Names the release: a hash of the client build's manifest, `dev` in development. */
  readonly build: string;
  /** The stylesheets' text by href, when they are written into the document (production). */
  readonly styleText?: Readonly<Record<string, string>>;
  loadRenderer(): Promise<Renderer>;
  /** Built only: maps a failure's stack to the source files through the shipped source maps. */
  fixStack?(error: unknown): void;
  close(): Promise<void>;
}

export const CLIENT_ENTRY = 'client/entry-client.tsx';
const SERVER_ENTRY = '/client/entry-server.tsx';
/** The stylesheets client/entry-client.tsx imports, in its order. */
const DEV_STYLES = ['/client/styles.css', '/shared/error-page.css'];
/**
 * Stylesheets up to this size (together) are written into the document instead of linked: the
 * first paint then waits for no request. 14 KB is about what a new connection's first round
 * trip carries (an initial congestion window of 10 segments, RFC 6928).
 */
const MAX_INLINE_CSS_BYTES = 14 * 1024;
/** Characters of the release's name: 72 bits of the manifest's hash, ample to tell releases apart. */
const BUILD_ID_LENGTH = 12;
/** Distinct sets of matched routes whose chunks are remembered. */
const MAX_CACHED_CHUNK_SETS = 256;
/** Built files have content hashes in their names, so they never change: cache for a year. */
const IMMUTABLE_MAX_AGE = '1y';
/**
 * `/assets` names the folder, not a file: it is sent on to `/assets/` (a 404), as serve-static
 * did. A 301 without Cache-Control is cacheable for as long as a cache likes (RFC 9111 §4.2.2),
 * browsers keep permanent redirects indefinitely, and nothing gains from keeping this one.
 */
const FOLDER_REDIRECT_CACHE_CONTROL = 'no-store';

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/** The entry's script, the chunks it imports (transitively) and its CSS, from Vite's manifest. */
export function assetsFromManifest(manifest: Record<string, ManifestChunk>, base = '/'): PageAssets {
  const entry = manifest[CLIENT_ENTRY];
  if (!entry) throw new Error(`The Vite manifest has no entry for ${CLIENT_ENTRY}: run npm run build`);
  const preloads = new Set<string>();
  const styles = new Set<string>(entry.css);
  const visit = (keys: string[] = []) => {
    for (const key of keys) {
      const chunk = manifest[key];
      if (!chunk || preloads.has(chunk.file)) continue;
      preloads.add(chunk.file);
      chunk.css?.forEach((file) => styles.add(file));
      visit(chunk.imports);
    }
  };
  visit(entry.imports);
  const url = (file: string) => base + file;
  return { scripts: [url(entry.file)], preloads: [...preloads].map(url), styles: [...styles].map(url) };
}

/**
 * What the built chunks of these source modules bring, from Vite's manifest, cached per set:
 * `pick` reads a chunk's own files (its file, or its CSS) and the walk follows its imports.
 */
function walkManifest(manifest: Record<string, ManifestChunk>, base: string, pick: (chunk: ManifestChunk) => readonly string[]) {
  const cache = new Map<string, readonly string[]>();
  return (sources: readonly string[]): readonly string[] => {
    const key = sources.join('\n');
    const known = cache.get(key);
    if (known) return known;
    const seen = new Set<ManifestChunk>();
    const files = new Set<string>();
    const visit = (keys: readonly string[] = []) => {
      for (const key of keys) {
        const chunk = manifest[key];
        if (!chunk || seen.has(chunk)) continue;
        seen.add(chunk);
        pick(chunk).forEach((file) => files.add(file));
        visit(chunk.imports);
      }
    };
    visit(sources);
    const urls = [...files].map((file) => base + file);
    // Route combinations are few (one per route table path); the cap only bounds a bug.
    if (cache.size < MAX_CACHED_CHUNK_SETS) cache.set(key, urls);
    return urls;
  };
}

/** A chunk per source module, with everything it imports, from Vite's manifest; cached per set. */
export const chunksFromManifest = (manifest: Record<string, ManifestChunk>, base = '/') =>
  walkManifest(manifest, base, (chunk) => [chunk.file]);

/**
 * The stylesheets a page or layout module imports (Vite's manifest lists them as its chunk's
 * `css`, and its imported chunks'), to link or write into the document beside the entry's.
 */
export const stylesFromManifest = (manifest: Record<string, ManifestChunk>, base = '/') =>
  walkManifest(manifest, base, (chunk) => chunk.css ?? []);

/** Every stylesheet of the build: the entry's and each page's. */
function allStyles(manifest: Record<string, ManifestChunk>, base = '/'): string[] {
  return [...new Set(Object.values(manifest).flatMap((chunk) => chunk.css ?? []))].map((file) => base + file);
}

/**
 * The built stylesheets' text by href, if small enough to write into each document: all of the
 * build's together, so any page's (the entry's and its routes') fits. Vite writes the URLs
 * inside them from the site's root (base '/'), so they resolve the same from any page.
 */
function inlineStyles(clientDir: string, hrefs: readonly string[]): Record<string, string> | undefined {
  const text = Object.fromEntries(hrefs.map((href) => [href, readFileSync(join(clientDir, href), 'utf8')]));
  const bytes = Object.values(text).reduce((sum, css) => sum + Buffer.byteLength(css), 0);
  return bytes <= MAX_INLINE_CSS_BYTES ? text : undefined;
}

/** Where the built assets are served. */
const ASSETS = '/assets';

/**
 * Production: the built client in `clientDir`, its manifest read once at start-up. With
 * `sharedAssetsDir`, assets this build lacks are served from there (see shared-assets.ts).
 */
export function createProdFrontend(
  clientDir: string,
  renderer: Renderer,
  sharedAssetsDir?: string,
  fixStack: (error: unknown) => void = createSourceMapper().fixStack,
): Frontend {
  const manifestText = readFileSync(join(clientDir, '.vite/manifest.json'), 'utf8');
  const manifest = JSON.parse(manifestText) as Record<string, ManifestChunk>;
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
  const publicFiles = servePublicFiles(clientDir);
  // Only what is under /assets enters the router (its mount path matches case-insensitively):
  // a router's dispatch loop cost every other request, a page or a 404, on its way past.
  const middleware: RequestHandler = (req, res, next) => {
    const path = res.locals.target!.path;
    if (path.length >= ASSETS.length && path.slice(0, ASSETS.length).toLowerCase() === ASSETS && (path[ASSETS.length] ?? '/') === '/')
      return router(req, res, next);
    publicFiles(req, res, next);
  };
  const linked = assetsFromManifest(manifest);
  const styleText = inlineStyles(clientDir, allStyles(manifest));
  return {
    middleware,
    assets: styleText === undefined ? linked : { ...linked, stylesInline: true },
    build: createHash('sha256').update(manifestText).digest('base64url').slice(0, BUILD_ID_LENGTH),
    styleText,
    preloadsFor: chunksFromManifest(manifest),
    stylesFor: stylesFromManifest(manifest),
    loadRenderer: () => Promise.resolve(renderer),
    fixStack,
    close: () => Promise.resolve(),
  };
}

/**
 * Dev: Vite in middleware mode with HMR; the renderer is reloaded through Vite on change, and an
 * edit only the server runs revalidates the open page's data (server-change-events.ts). Its
 * module runner already maps stacks to the sources as errors are made (mapping them again with
 * ssrFixStacktrace pointed at wrong lines).
 */
export async function createDevFrontend(root: string, host: string, hmrPort: number): Promise<Frontend> {
  const { createServer } = await import('vite');
  // HMR listens on a WebSocket port of its own (HMR_PORT: two dev servers need two), at the
  // app's own address (hmr-listener.ts). Vite attaches to that server and tells the browser the port.
  // Its plugins are vite.config.ts's, and one that tells the browser of server-only edits.
  const hmr = await listenForHmr(host, hmrPort);
  const vite = await createServer({
    root,
    server: { middlewareMode: true, ws: { server: hmr, port: hmrPort } },
    appType: 'custom',
    plugins: [serverChangeEvents(root)],
  }).catch(async (error: unknown) => {
    await closeHmr(hmr);
    throw error;
  });
  return {
    middleware: vite.middlewares as unknown as RequestHandler,
    // Linked as well as imported, so a dev page is styled before its JavaScript runs (Vite
    // serves a stylesheet request as plain CSS; the imported copy is what HMR updates).
    assets: { scripts: ['/@vite/client', `/${CLIENT_ENTRY}`], preloads: [], styles: DEV_STYLES },
    build: 'dev',
    preloadsFor: () => [],
    stylesFor: moduleGraphStyles(vite, root),
    loadRenderer: () => vite.ssrLoadModule(SERVER_ENTRY) as Promise<Renderer>,
    close: () => vite.close().finally(() => closeHmr(hmr)),
  };
}
