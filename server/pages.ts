import type { Request, RequestHandler, Response } from 'express';
import type { MatchedRoute, OnError, PageRequest, PageResponse } from '../shared/page-seam.ts';
import { DATA_PATH, ROUTES_PARAM, type DataLine } from '../shared/route-data.ts';
import type { BrowserSentryConfig, TraceMeta } from '../shared/runtime.ts';
import type { Config } from './config.ts';
import { diagnosticsAllowed } from './diagnostics.ts';
import { httpError, methodNotAllowed } from './failures/http-error.ts';
import type { FailureRecorder } from './failures/recorder.ts';
import { ClientAbortError, CrossOriginRedirectError, LoaderTimeoutError, StreamTimeoutError } from './failures/render-errors.ts';
import { asNextError, isInstance } from './failures/thrown-value.ts';
import type { Frontend } from './frontend.ts';
import { isBot } from './is-bot.ts';
import { DATA_HEADERS, HTML_HEADERS, sendBody } from './page-response.ts';
import { isSameOriginTarget } from './redirect-target.ts';
import { requestDeadline, type Deadline } from './request-deadline.ts';
import { displayHostname, requestOrigin } from './request-origin.ts';

// The app's pages come from its route table (client/routes.tsx) through the renderer; nothing
// here lists them. Pages and their data answer GET and HEAD (HEAD with the status and headers
// GET would have, RFC 9110 §9.3.2); other methods get 405 with Allow (RFC 9110 §15.5.6).

const PAGE_METHODS = 'GET, HEAD';
/** A navigation names the routes whose data it needs: a handful, with short ids. */
const MAX_ROUTE_IDS = 16;
const ROUTE_ID = /^[\w-]{1,64}$/;

interface PageDeps {
  config: Config;
  failures: FailureRecorder;
  frontend: Frontend;
  /** The request's trace, when Sentry is on (see server/sentry.ts). */
  traceMeta?: () => TraceMeta | undefined;
}

function browserSentry(config: Config): BrowserSentryConfig | undefined {
  const { sentry } = config;
  if (sentry === undefined) return undefined;
  const { dsn, environment, tunnelPath, tracesSampleRate } = sentry;
  return { dsn, environment, tracesSampleRate, tunnel: tunnelPath, release: config.release };
}

/**
 * The page's own path and query, from Express's parsed path: never another host (`//evil.com/x`
 * or an absolute-form target resolves on this origin), and relative to where the router is mounted.
 */
function pagePath(req: Request, search: string): string {
  return `/${req.path.replace(/^\/+/, '')}${search}`;
}

/** The query string as sent (`?…`), less the parameters named in `drop`, otherwise untouched. */
function queryOf(req: Request, drop?: string): string {
  const start = req.originalUrl.indexOf('?');
  if (start === -1) return '';
  const query = req.originalUrl.slice(start + 1);
  if (drop === undefined) return `?${query}`;
  // URLSearchParams decodes names leniently (a malformed % stays as it is), never throwing.
  const kept = query.split('&').filter((pair) => [...new URLSearchParams(pair).keys()][0] !== drop);
  return kept.length > 0 ? `?${kept.join('&')}` : '';
}

/** Characters of route ids echoed in a 400: enough to recognise them, bounded whatever was sent. */
const MAX_ECHOED_IDS = 200;

export function createPageHandlers(deps: PageDeps): { page: RequestHandler; data: RequestHandler } {
  const sentry = browserSentry(deps.config);
  const { config, failures } = deps;

  /** What the renderer gets of this request; `url` is the page's own URL. */
  function pageRequest(req: Request, res: Response, url: URL, deadline: Deadline): PageRequest {
    return {
      url,
      method: req.method,
      headers: req.headers,
      body: null,
      ...deadline,
      waitForAll: isBot(req.get('user-agent')),
      nonce: res.locals.cspNonce ?? '',
      page: {
        assets: deps.frontend.assets,
        preloadsFor: deps.frontend.preloadsFor,
        requestId: String(req.id),
        hostname: displayHostname(config, res),
        trace: deps.traceMeta?.(),
        sentry,
      },
    };
  }

  /** The host's one hook (page-seam.ts); a client that left is not a failure at all. */
  function onErrorFor(req: Request, res: Response, { signal }: Deadline): OnError {
    return (error, where) => {
      // Once the deadline fires, whatever a loader fails with because of it is that one failure.
      const cause: unknown = where === 'loader' && signal.aborted ? signal.reason : error;
      if (isInstance(cause, ClientAbortError)) return { status: 499, digest: undefined };
      const failure = failures.record(cause, req, res, where);
      return where === 'render' ? { ...failure, pageDigest: failures.pageDigest(failure, req) } : failure;
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

  /** Matched once; a path no route takes (every 404) builds no request and starts no deadline. */
  async function matched(req: Request, url: URL): Promise<MatchedRoute | undefined> {
    const renderer = await deps.frontend.loadRenderer();
    return renderer.match(url, diagnosticsAllowed(config, req));
  }

  /** A redirect the browser would follow elsewhere is refused: one failure, one digest (render-errors.ts). */
  function checkRedirect(res: Response, location: string): void {
    if (!isSameOriginTarget(location, requestOrigin(config, res))) throw new CrossOriginRedirectError(location);
  }

  const page: RequestHandler = async (req, res, next) => {
    const url = new URL(pagePath(req, queryOf(req)), requestOrigin(config, res));
    const route = await matched(req, url);
    if (route === undefined) return next();
    res.locals.route = `page:${route.routeId}`;
    if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed(req.method, PAGE_METHODS);
    const deadline = requestDeadline(res, config.streamTimeoutMs);
    const work = route.document(pageRequest(req, res, url, deadline), onErrorFor(req, res, deadline));
    send(res, next, await rendered(work, req, res));
  };

  function send(res: Response, next: (error?: unknown) => void, response: PageResponse): void {
    switch (response.type) {
      case 'not-found':
        return next();
      case 'failed':
        // A thrown undefined or null is still a failure, not Express's "no error".
        return next(asNextError(response.error));
      case 'redirect':
        checkRedirect(res, response.location);
        return void res.set('Cache-Control', 'no-store').redirect(response.status, response.location);
      case 'document':
        return sendBody(res, response.status, HTML_HEADERS, response.body);
      case 'data':
        return sendBody(res, response.status, DATA_HEADERS, response.body);
    }
  }

  /** Loader data for a client navigation, as newline-delimited JSON (shared/route-data.ts). */
  const data: RequestHandler = async (req, res, next) => {
    res.locals.api = true;
    if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed(req.method, PAGE_METHODS);
    const routeIds = (new URLSearchParams(queryOf(req)).get(ROUTES_PARAM) ?? '').split(',').filter(Boolean);
    if (routeIds.length === 0 || routeIds.length > MAX_ROUTE_IDS || !routeIds.every((id) => ROUTE_ID.test(id))) {
      throw httpError(400, `${ROUTES_PARAM} must name 1 to ${MAX_ROUTE_IDS} route ids`);
    }
    const url = new URL(pagePath(req, queryOf(req, ROUTES_PARAM)), requestOrigin(config, res));
    const route = await matched(req, url);
    if (route === undefined) return next();
    res.locals.route = `data:${route.routeId}`;
    const deadline = requestDeadline(res, config.streamTimeoutMs);
    const work = route.data(pageRequest(req, res, url, deadline), routeIds, onErrorFor(req, res, deadline));
    const response = await rendered(work, req, res);
    if (response.type === 'unmatched') {
      const named = response.ids.join(',').slice(0, MAX_ECHOED_IDS);
      throw httpError(400, `${ROUTES_PARAM} names routes that do not exist or that this URL does not match: ${named}`);
    }
    if (response.type !== 'redirect') return send(res, next, response);
    // A refusal answers as JSON (the error handler), which the browser tells apart by its type.
    checkRedirect(res, response.location);
    res
      .status(200)
      .set(DATA_HEADERS)
      .end(`${JSON.stringify({ redirect: response.location } satisfies DataLine)}\n`);
  };

  return { page, data };
}

export { DATA_PATH };
