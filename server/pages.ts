import type { Request, RequestHandler, Response } from 'express';
import type { PageRequestContext } from '../shared/page-seam.ts';
import { DATA_PATH, ROUTES_PARAM, type DataLine } from '../shared/route-data.ts';
import type { BrowserSentryConfig, TraceMeta } from '../shared/runtime.ts';
import type { Config } from './config.ts';
import { diagnosticsAllowed } from './diagnostics.ts';
import { httpError, methodNotAllowed } from './errors/http-error.ts';
import type { FailureRecorder } from './errors/failures.ts';
import { asNextError } from './errors/thrown-value.ts';
import type { Frontend } from './frontend.ts';
import { isSameOriginTarget } from './redirect-target.ts';
import { ClientAbortError, CrossOriginRedirectError, LoaderTimeoutError, StreamTimeoutError } from './errors/render-errors.ts';
import { RENDER_ABORT_GRACE_MS, requestDeadline, streamReact } from './render.ts';
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

/**
 * The loaders' work, unless the deadline comes first. Loaders see their signal fire at the
 * deadline and get the render's grace to settle (render.ts); one that ignores it cannot hold
 * the request: past the grace it is a timeout failure naming the route (504: nothing was sent).
 */
function beforeDeadline<T>(work: Promise<T>, deadline: AbortSignal, route: string, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      const reason: unknown = deadline.reason;
      if (!(reason instanceof StreamTimeoutError)) return reject(reason);
      timer = setTimeout(() => reject(new LoaderTimeoutError(route, timeoutMs)), RENDER_ABORT_GRACE_MS);
    };
    if (deadline.aborted) onAbort();
    else deadline.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      deadline.removeEventListener('abort', onAbort);
    });
  });
}

export function createPageHandlers(deps: PageDeps): { page: RequestHandler; data: RequestHandler } {
  const sentry = browserSentry(deps.config);

  /** What the renderer gets of this request; `url` is the page's own path and query. */
  function contextFor(req: Request, res: Response, url: string, signal: AbortSignal): PageRequestContext {
    const pageUrl = new URL(url, requestOrigin(deps.config, res));
    let request: globalThis.Request | undefined;
    return {
      url: pageUrl,
      get request() {
        return (request ??= new globalThis.Request(pageUrl, { method: 'GET', headers: req.headers as Record<string, string> }));
      },
      signal,
      allowDiagnostics: diagnosticsAllowed(deps.config, req),
      recordFailure(error) {
        // Once the deadline fires, whatever fails because of it is that one failure, recorded once;
        // a client that left is not a failure at all.
        const cause: unknown = signal.aborted ? signal.reason : error;
        if (cause instanceof ClientAbortError) return { status: 499, digest: undefined };
        return deps.failures.record(cause, req, res, 'loader');
      },
      page: {
        assets: deps.frontend.assets,
        preloadsFor: deps.frontend.preloadsFor,
        requestId: String(req.id),
        hostname: displayHostname(deps.config, res),
        trace: deps.traceMeta?.(),
        sentry,
      },
    };
  }

  const renderer = () => deps.frontend.loadRenderer();

  const page: RequestHandler = async (req, res, next) => {
    const isRead = req.method === 'GET' || req.method === 'HEAD';
    const url = pagePath(req, queryOf(req));
    const render = await renderer();
    // Matched first: a path no route takes (every 404) builds no context and starts no deadline.
    const probe = { url: new URL(url, requestOrigin(deps.config, res)), allowDiagnostics: diagnosticsAllowed(deps.config, req) };
    const routeId = render.match(probe);
    if (routeId === undefined) return next();
    const deadline = requestDeadline(res, deps.config.streamTimeoutMs);
    const context = contextFor(req, res, url, deadline);
    res.locals.route = `page:${routeId}`;
    if (!isRead) throw methodNotAllowed(req.method, PAGE_METHODS);
    const outcome = await beforeDeadline(render.page(context), deadline, res.locals.route, deps.config.streamTimeoutMs);
    switch (outcome.type) {
      case 'no-route':
        return next();
      case 'failure':
        // A thrown undefined or null is still a failure, not Express's "no error".
        return next(asNextError(outcome.error));
      case 'redirect':
        if (!isSameOriginTarget(outcome.location, requestOrigin(deps.config, res)))
          return next(new CrossOriginRedirectError(outcome.location));
        res.set('Cache-Control', 'no-store').redirect(outcome.status, outcome.location);
        return;
      case 'render':
        streamReact(deps, req, res, next, {
          status: outcome.status,
          deadline,
          start: outcome.render,
          recover(error) {
            if (!outcome.canRecover) return undefined;
            const failure = context.recordFailure(error);
            return { status: failure.status, start: (options) => outcome.renderFailure(failure, options) };
          },
        });
    }
  };

  /** Loader data for a client navigation, as newline-delimited JSON (shared/route-data.ts). */
  const data: RequestHandler = async (req, res, next) => {
    res.locals.api = true;
    if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed(req.method, PAGE_METHODS);
    const routeIds = (new URLSearchParams(queryOf(req)).get(ROUTES_PARAM) ?? '').split(',').filter(Boolean);
    if (routeIds.length === 0 || routeIds.length > MAX_ROUTE_IDS || !routeIds.every((id) => ROUTE_ID.test(id))) {
      throw httpError(400, `${ROUTES_PARAM} must name 1 to ${MAX_ROUTE_IDS} route ids`);
    }
    const deadline = requestDeadline(res, deps.config.streamTimeoutMs);
    const context = contextFor(req, res, pagePath(req, queryOf(req, ROUTES_PARAM)), deadline);
    const render = await renderer();
    const routeId = render.match(context);
    if (routeId === undefined) return next();
    res.locals.route = `data:${routeId}`;
    const outcome = await beforeDeadline(render.data(context, routeIds), deadline, res.locals.route, deps.config.streamTimeoutMs);
    if (outcome.type === 'no-route') return next();
    if (outcome.type === 'unmatched-routes') {
      const named = outcome.ids.join(',').slice(0, MAX_ECHOED_IDS);
      throw httpError(400, `${ROUTES_PARAM} names routes that do not exist or that this URL does not match: ${named}`);
    }
    // A refusal answers as JSON (the error handler), which the browser tells apart by its type.
    const refused = outcome.type === 'redirect' && !isSameOriginTarget(outcome.location, requestOrigin(deps.config, res));
    if (refused) return next(new CrossOriginRedirectError(outcome.location));
    // Per-user data: no shared cache may keep it (and the page URL's own response is HTML).
    res.set({ 'Cache-Control': 'no-store', 'Content-Type': 'application/x-ndjson; charset=utf-8' });
    if (outcome.type === 'redirect')
      return void res.status(200).end(`${JSON.stringify({ redirect: outcome.location } satisfies DataLine)}\n`);
    const write = (line: unknown) => void (res.writableEnded || res.destroyed || res.write(`${JSON.stringify(line)}\n`));
    res.status(outcome.status);
    write(outcome.head);
    const waiting = new Set(outcome.rest.map((value) => value.id));
    const settled = outcome.rest.map(({ id, settled }) => settled.then((line) => waiting.delete(id) && write(line)));
    const timedOut = new Promise<void>((resolve) => {
      if (deadline.aborted) resolve();
      else deadline.addEventListener('abort', () => resolve(), { once: true });
    });
    await Promise.race([Promise.all(settled), timedOut]);
    // Past the deadline, what is still pending is that one failure (a client that left gets nothing).
    for (const id of waiting) write(outcome.failed(id, deadline.reason));
    res.end();
  };

  return { page, data };
}

export { DATA_PATH };
