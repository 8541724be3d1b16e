import type { RequestHandler } from 'express';
import { BUILD_PARAM, DISCOVERY_PATH, type DiscoveryAnswer } from '../../shared/route-discovery.ts';
import type { Config } from '../config/config.ts';
import { DIAGNOSTICS_HEADER, diagnosticsAllowed } from './diagnostics.ts';
import { httpError, methodNotAllowed } from '../failures/errors.ts';
import type { Frontend } from '../assets/frontend.ts';
import { pagePath, queryOf } from './page-request.ts';
import { requestOrigin } from '../edge/request-origin.ts';

// GET DISCOVERY_PATH + a page's path, `?build=<release>`: the routes a request for that path
// would match, as the browser's router learns them (shared/route-discovery.ts). It runs no
// loader and reads no body. An answer depends on the release and the path alone, so it is cached
// for the release's life; with the diagnostics token it may name diagnostic routes, so it is
// then kept by nobody. How long a path can be is the server's header limit (431 above it).

/** The route label of the access line and the metrics. */
export const DISCOVERY_ROUTE = 'discovery';
/** A release's answers never change: a year, as for its built files. */
const RELEASE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const BUILD_ID = /^[\w-]{1,64}$/;

/** The one query parameter, as sent; anything else in the query is refused (one URL per answer). */
function buildOf(query: string): string {
  const params = new URLSearchParams(query);
  const build = params.get(BUILD_PARAM);
  if (build === null || [...params.keys()].length !== 1 || !BUILD_ID.test(build)) {
    throw httpError(400, `The query must be ${BUILD_PARAM}=<the page's release> and nothing else`);
  }
  return build;
}

export function createRouteDiscovery(config: Config, frontend: Frontend): RequestHandler {
  return async (req, res) => {
    res.locals.api = true;
    res.locals.route = DISCOVERY_ROUTE;
    if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed(req.method, 'GET, HEAD');
    if (buildOf(queryOf(req).slice(1)) !== frontend.build) {
      throw httpError(409, 'This page is from another release of the site: load it again');
    }
    const url = new URL(pagePath(req, ''), requestOrigin(config, res));
    const diagnostics = diagnosticsAllowed(config, req);
    const matched = (await frontend.loadRenderer()).match(url, diagnostics);
    const answer: DiscoveryAnswer = { routes: matched?.describe(frontend) ?? [] };
    // Development rebuilds the table on every edit, under one release name.
    const cacheControl = diagnostics || !config.isProduction ? 'no-store' : RELEASE_CACHE_CONTROL;
    // A cache must not hand one request's answer to a request with another token.
    if (config.diagnosticsToken !== undefined) res.vary(DIAGNOSTICS_HEADER);
    res.set('Cache-Control', cacheControl).json(answer);
  };
}

export { DISCOVERY_PATH };
