import type { Request, RequestHandler, Response } from 'express';
import { ACTION_METHODS, type MatchedRoute, type OnError, type PageRequest, type PageResponse } from '../../shared/page-seam.ts';
import { DATA_PATH, ROUTES_PARAM, type DataLine } from '../../shared/route-data.ts';
import { diagnosticsAllowed } from './diagnostics.ts';
import { httpError, methodNotAllowed } from '../failures/errors.ts';
import type { FailureRecorder } from '../failures/recorder.ts';
import { ClientAbortError, CrossOriginRedirectError, LoaderTimeoutError, StreamTimeoutError } from '../failures/errors.ts';
import { asNextError, devDetail, isInstance } from '../failures/thrown-value.ts';
import { DATA_HEADERS, pageHeaders, sendBody, sendResource, setRouteHeaders } from './page-response.ts';
import { renderFacts, routeHeadersOf } from './regeneration.ts';
import { createPageRequests, pagePath, queryWithout, type PageRequestDeps } from './page-request.ts';
import { isSameOriginTarget } from './redirect-target.ts';
import { requestDeadline, type Deadline } from './request-deadline.ts';
import { requestOrigin } from '../edge/request-origin.ts';
import { readRequestBody } from '../writes/request-body.ts';
import { routeBodyLimits } from '../config/body-limits.ts';
import { displayHostname } from '../edge/request-origin.ts';
import { isBot } from '../edge/is-bot.ts';
import type { CacheSpec, PageCache } from './page-cache.ts';
import type { PageValues } from './page-template.ts';
import { createRegeneration } from './regeneration.ts';
import { redirectedToSpelling } from './canonical-spelling.ts';

// The app's pages come from its route table (client/routes.tsx) through the renderer; nothing
// here lists them. Pages and their data answer GET and HEAD (HEAD with the status and headers
// GET would have, RFC 9110 §9.3.2); a route whose module has an action answers POST, PUT, PATCH
// and DELETE too; other methods get 405 with Allow (RFC 9110 §15.5.6).

const READ_METHODS = new Set(['GET', 'HEAD']);
/** A navigation names the routes whose data it needs: a handful, with short ids. */
const MAX_ROUTE_IDS = 16;
const ROUTE_ID = /^[\w-]{1,64}$/;
/** A prefetch says so (client/router/browser/route-data-client.ts; browsers' own prefetches send Sec-Purpose). */
const PREFETCH = /\bprefetch\b/i;

type Next = (error?: unknown) => void;

interface PageDeps extends PageRequestDeps {
  failures: FailureRecorder;
  /** Stored pages (docs/caching.md); none: every page is rendered per request. */
  cache?: PageCache;
}

/** A cacheable read: what it is stored under, and the values its answer fills in. */
interface Cached {
  spec: CacheSpec;
  values: PageValues;
}

/** Characters of route ids echoed in a 400: enough to recognise them, bounded whatever was sent. */
const MAX_ECHOED_IDS = 200;

export function createPageHandlers(deps: PageDeps): { page: RequestHandler; data: RequestHandler } {
  const { config, failures } = deps;
  const pageRequest = createPageRequests(deps);

  /** The host's one hook (page-seam.ts); a client that left is not a failure at all. */
  function onErrorFor(req: Request, res: Response, { signal }: Deadline): OnError {
    return (error, where) => {
      // Once the deadline fires, whatever a loader fails with because of it is that one failure.
      const cause: unknown = where === 'loader' && signal.aborted ? signal.reason : error;
      if (isInstance(cause, ClientAbortError)) return { status: 499, digest: undefined };
      const failure = failures.record(cause, req, res, where);
      // Development shows the failure in its boundary; production never says more than the digest.
      const recorded = failure.digest !== undefined && !config.isProduction ? { ...failure, detail: devDetail(cause) } : failure;
      return where === 'render' ? { ...recorded, pageDigest: failures.pageDigest(failure, req) } : recorded;
    };
  }

  /**
   * The renderer's answer. Its loader phase ends when the render signal fires (the deadline and
   * its grace, request-deadline.ts): a loader that ignored its signal is then one timeout failure
   * naming the route, recorded as a loader's (a 504: nothing was sent yet).
   */
  async function rendered<T>(work: Promise<T>, req: Request, res: Response): Promise<T> {
    try {
      return await work;
    } catch (error) {
      if (!isInstance(error, StreamTimeoutError)) throw error;
      const timeout = new LoaderTimeoutError(res.locals.route ?? 'unmatched', config.streamTimeoutMs);
      failures.record(timeout, req, res, 'loader');
      throw timeout;
    }
  }

  /**
   * Matched once; a path no route takes (every 404) builds no request and starts no deadline. A
   * read of a page by another spelling than its own is redirected to it first (canonical-spelling.ts).
   */
  async function matched(req: Request, res: Response, url: URL, mount?: string): Promise<MatchedRoute | 'redirected' | undefined> {
    const renderer = await deps.frontend.loadRenderer();
    const route = renderer.match(url, () => diagnosticsAllowed(config, req));
    if (route === undefined || route.isResource || !READ_METHODS.has(req.method)) return route;
    return redirectedToSpelling(res, renderer, mount) ? 'redirected' : route;
  }

  /**
   * The request for the renderer, once its method is one the route answers (else 405, before a
   * byte of the body is read) and the body of a write has been read and checked (request-body.ts).
   */
  async function prepare(req: Request, res: Response, route: MatchedRoute, url: URL): Promise<[PageRequest, OnError]> {
    const reads = READ_METHODS.has(req.method);
    if (!reads || route.isResource) {
      const methods = await route.methods();
      if (!methods.includes(req.method)) throw methodNotAllowed(req.method, methods.join(', '));
    }
    // A prefetch's failure is logged at warn, unreported: nobody has seen it yet (recorder.ts).
    if (PREFETCH.test(`${req.get('purpose') ?? ''} ${req.get('sec-purpose') ?? ''}`)) res.locals.prefetch = true;
    // The route's own limits (its module is loaded already, for its methods), checked before a byte is read.
    const body = reads
      ? null
      : await readRequestBody(req, config.bodyTimeoutMs, routeBodyLimits(config.body, await route.bodyLimits(), route.routeId));
    const deadline = requestDeadline(res, config.streamTimeoutMs);
    return [await pageRequest(req, res, url, deadline, body), onErrorFor(req, res, deadline)];
  }

  /** Headers the routes set, and the session's cookie when they changed it; then the answer. */
  async function answer(res: Response, next: Next, request: PageRequest, response: PageResponse, forData = false, cached?: Cached) {
    setRouteHeaders(res, response.headers);
    const cookie = await deps.sessions.commit(request.context.session);
    if (cookie !== undefined) res.append('Set-Cookie', cookie);
    if (response.type !== 'redirect') return send(res, next, request, response, cached);
    checkRedirect(res, response.location);
    // A navigation's redirect is data the browser's router follows; the error handler answers a
    // refusal as JSON, which the browser tells apart by its type.
    if (forData)
      return void res
        .status(200)
        .set(DATA_HEADERS)
        .end(`${JSON.stringify({ redirect: response.location } satisfies DataLine)}\n`);
    // After a write the browser GETs the target (303, RFC 9110 §15.4.4): a reload never posts again.
    const status = ACTION_METHODS.includes(request.method) ? 303 : response.status;
    res.set('Cache-Control', 'no-store').redirect(status, response.location);
  }

  /** A redirect the browser would follow elsewhere is refused: one failure, one digest (failures/errors.ts). */
  function checkRedirect(res: Response, location: string): void {
    if (!isSameOriginTarget(location, requestOrigin(config, res))) throw new CrossOriginRedirectError(location);
  }

  const regeneration = deps.cache && createRegeneration({ ...deps, cache: deps.cache, pageRequest });

  /** A read of a route whose module asks to be reused, and whose per-request values can be filled in; else undefined. */
  async function cacheable(req: Request, res: Response, route: MatchedRoute, url: URL, routeIds?: string[]): Promise<Cached | undefined> {
    const { cache } = deps;
    if (cache === undefined || !READ_METHODS.has(req.method) || route.isResource) return undefined;
    const policy = await cache.policyOf(route);
    const values = cache.valuesOf({
      nonce: res.locals.cspNonce ?? '',
      requestId: String(req.id),
      hostname: displayHostname(config, res),
      trace: deps.traceMeta?.(),
    });
    if (policy === undefined || values === undefined) return undefined;
    const kind = routeIds === undefined ? 'document' : 'data';
    // The origin too: without PUBLIC_ORIGIN a loader's request.url carries the request's own Host.
    const target = `${url.origin}${url.pathname}${url.search}${routeIds === undefined ? '' : `#${routeIds.join(',')}`}`;
    const bot = isBot(req.get('user-agent'));
    return { spec: cache.specOf({ kind, path: url.pathname, target, bot, routeId: route.routeId, policy }), values };
  }

  /** Answered from the store (HIT, or STALE while one regeneration runs): true when it was. */
  function fromStore(req: Request, res: Response, route: MatchedRoute, url: URL, cached: Cached, routeIds?: string[]) {
    return deps.cache!.serve(cached.spec, req, res, cached.values, () => regeneration!(req, res, route, url, cached.spec, routeIds));
  }

  const page: RequestHandler = async (req, res, next) => {
    const url = new URL(pagePath(res), requestOrigin(config, res));
    const route = await matched(req, res, url);
    if (route === 'redirected') return;
    if (route === undefined) return next();
    res.locals.route = `${route.isResource ? 'resource' : 'page'}:${route.routeId}`;
    if (route.isResource) res.locals.api = true;
    const cached = await cacheable(req, res, route, url);
    if (cached !== undefined && (await fromStore(req, res, route, url, cached))) return;
    const [live, onError] = await prepare(req, res, route, url);
    const request = cached === undefined ? live : deps.cache!.asTemplate(live, cached.spec);
    const work = route.isResource ? route.resource(request, onError) : route.document(request, onError);
    await answer(res, next, request, await rendered(work, req, res), false, cached);
  };

  function send(
    res: Response,
    next: Next,
    request: PageRequest,
    response: Exclude<PageResponse, { type: 'redirect' }>,
    cached?: Cached,
  ): void {
    // What a write answers, or what read or holds a session, is one user's: pages and resource routes alike.
    const perUser = !READ_METHODS.has(request.method) || deps.sessions.isPerUser(request.context.session);
    switch (response.type) {
      case 'not-found':
        return next();
      case 'failed':
        // A thrown undefined or null is still a failure, not Express's "no error".
        return next(asNextError(response.error));
      case 'document':
      case 'data': {
        const headers = pageHeaders(res, response.type, response.status, perUser);
        if (cached === undefined) return sendBody(res, response.status, headers, response.body);
        // The client gets it filled as it streams; the template is stored if, once it ended, the rule allows.
        const facts = () => ({
          ...renderFacts(res, request, response.status, { ...routeHeadersOf(response.headers), ...headers }),
          perUser: deps.sessions.isPerUser(request.context.session),
        });
        return sendBody(res, response.status, headers, deps.cache!.tee(cached.spec, res.req, response.body, cached.values, facts));
      }
      case 'resource':
        return sendResource(res, response.response, perUser);
    }
  }

  /** The routes a data request names: 1 to MAX_ROUTE_IDS well-formed ids (a write names exactly one). */
  function routeIdsOf(req: Request, res: Response): string[] {
    const routeIds = (new URLSearchParams(res.locals.target!.query).get(ROUTES_PARAM) ?? '').split(',').filter(Boolean);
    const most = READ_METHODS.has(req.method) ? MAX_ROUTE_IDS : 1;
    if (routeIds.length === 0 || routeIds.length > most || !routeIds.every((id) => ROUTE_ID.test(id))) {
      throw httpError(400, `${ROUTES_PARAM} must name 1 to ${most} route ids`);
    }
    return routeIds;
  }

  /** Loader data for a client navigation, or an action's, as newline-delimited JSON (shared/route-data.ts). */
  const data: RequestHandler = async (req, res, next) => {
    res.locals.api = true;
    const routeIds = routeIdsOf(req, res);
    const url = new URL(pagePath(res, DATA_PATH, queryWithout(res.locals.target!.query, ROUTES_PARAM)), requestOrigin(config, res));
    const route = await matched(req, res, url, DATA_PATH);
    if (route === 'redirected') return;
    // A resource route's reads are its own answer; a form posts to its action here.
    if (route === undefined || (route.isResource && READ_METHODS.has(req.method))) return next();
    res.locals.route = `data:${route.routeId}`;
    const cached = await cacheable(req, res, route, url, routeIds);
    if (cached !== undefined && (await fromStore(req, res, route, url, cached, routeIds))) return;
    const [live, onError] = await prepare(req, res, route, url);
    const request = cached === undefined ? live : deps.cache!.asTemplate(live, cached.spec);
    const response = await rendered(route.data(request, routeIds, onError), req, res);
    if (response.type === 'unmatched') {
      const named = response.ids.join(',').slice(0, MAX_ECHOED_IDS);
      throw httpError(400, `${ROUTES_PARAM} names routes that do not exist or that this URL does not match: ${named}`);
    }
    await answer(res, next, request, response, true, cached);
  };

  return { page, data };
}

export { DATA_PATH };
