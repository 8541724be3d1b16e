import type { RequestHandler } from 'express';
import {
  BUILD_PARAM,
  DISCOVERY_PATH,
  MAX_BATCH_URL_LENGTH,
  PATHS_PARAM,
  type DiscoveryAnswer,
  type DiscoveryBatchAnswer,
} from '../../shared/route-discovery.ts';
import type { Config } from '../config/config.ts';
import { DIAGNOSTICS_HEADER, diagnosticsAllowed } from './diagnostics.ts';
import { httpError, methodNotAllowed } from '../failures/errors.ts';
import type { Frontend } from '../assets/frontend.ts';
import { pagePath } from './page-request.ts';
import { requestOrigin } from '../edge/request-origin.ts';

// GET DISCOVERY_PATH + a page's path, `?build=<release>`: the routes a request for that path
// would match, as the browser's router learns them (shared/route-discovery.ts); or, as a batch,
// GET DISCOVERY_PATH?build=<release>&p=<path>&p=<path>… for each path named. It runs no
// loader and reads no body. An answer depends on the release and the path alone, so it is cached
// for the release's life; with the diagnostics token it may name diagnostic routes, so it is
// then kept by nobody. How long a path can be is the server's header limit (431 above it).

/** The route label of the access line and the metrics. */
export const DISCOVERY_ROUTE = 'discovery';
/** A release's answers never change: a year, as for its built files. */
const RELEASE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const BUILD_ID = /^[\w-]{1,64}$/;

/**
 * Paths in one batch at most: a URL of MAX_BATCH_URL_LENGTH holds about this many of the
 * shortest (`&p=%2Fa`). Each costs a match, never a loader; the bound keeps one request's work
 * near one page's links.
 */
const MAX_BATCH_PATHS = MAX_BATCH_URL_LENGTH / 8;

/** The query, as sent: `build` once, and `p` (page paths) only in a batch; anything else is refused (one URL per answer). */
function queryParams(query: string, batch: boolean): { build: string; paths: string[] } {
  const params = new URLSearchParams(query);
  const build = params.get(BUILD_PARAM);
  const paths = params.getAll(PATHS_PARAM);
  const names = [...params.keys()].filter((name) => name !== PATHS_PARAM || !batch);
  if (build === null || names.length !== 1 || !BUILD_ID.test(build)) {
    throw httpError(
      400,
      `The query must be ${BUILD_PARAM}=<the page's release>${batch ? ` and ${PATHS_PARAM}=<path>…` : ''} and nothing else`,
    );
  }
  if (batch && (paths.length > MAX_BATCH_PATHS || !paths.every((path) => path.startsWith('/')))) {
    throw httpError(400, `A batch names up to ${MAX_BATCH_PATHS} paths, each starting with /`);
  }
  return { build, paths };
}

export function createRouteDiscovery(config: Config, frontend: Frontend): RequestHandler {
  return async (req, res) => {
    res.locals.api = true;
    res.locals.route = DISCOVERY_ROUTE;
    if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed(req.method, 'GET, HEAD');
    // `/_routes?…` is a batch; `/_routes/<path>?…` one path (`/_routes/` is the home page's).
    const { path, query } = res.locals.target!;
    const batch = path === DISCOVERY_PATH;
    const { build, paths } = queryParams(query.slice(1), batch);
    if (build !== frontend.build) throw httpError(409, 'This page is from another release of the site: load it again');
    const origin = requestOrigin(config, res);
    const diagnostics = diagnosticsAllowed(config, req);
    const renderer = await frontend.loadRenderer();
    // Leading slashes as one, as for a request's own path (pagePath): `//x` is a path here, never a host.
    const branch = async (path: string) =>
      (await renderer.match(new URL(path.replace(/^\/+/, '/'), origin), () => diagnostics)?.describe(frontend)) ?? [];
    const answer: DiscoveryAnswer | DiscoveryBatchAnswer = batch
      ? { branches: Object.fromEntries(await Promise.all(paths.map(async (path) => [path, await branch(path)] as const))) }
      : { routes: await branch(pagePath(res, DISCOVERY_PATH, '')) };
    // Development rebuilds the table on every edit, under one release name.
    const cacheControl = diagnostics || !config.isProduction ? 'no-store' : RELEASE_CACHE_CONTROL;
    // A cache must not hand one request's answer to a request with another token.
    if (config.diagnosticsToken !== undefined) res.vary(DIAGNOSTICS_HEADER);
    res.set('Cache-Control', cacheControl).json(answer);
  };
}

export { DISCOVERY_PATH };
