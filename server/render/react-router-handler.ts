import type { Request as ExpressRequest, Response as ExpressResponse, RequestHandler } from 'express';
import type { Config } from '../config/config.ts';
import { methodNotAllowed, notFound } from '../failures/errors.ts';
import { routeBodyLimits } from '../config/body-limits.ts';
import { displayHostname, requestIsSecure, requestOrigin } from '../edge/request-origin.ts';
import { isBot } from '../edge/is-bot.ts';
import { PER_REQUEST_PAGE, sendResponse } from '../edge/send-response.ts';
import { wantsJson } from '../edge/wants-json.ts';
import { readRequestBody, type RequestBody } from '../writes/request-body.ts';
import type { Sessions } from '../writes/session.ts';
import type { StoredPages } from '../pages/stored-pages.ts';
import type { PageRenderer } from './page-renderer.ts';
import { requestDeadline } from '../edge/request-deadline.ts';
import { ACTION_METHODS, READ_METHODS } from './route-table.ts';
import type { BodyLimits } from '../config/body-limits.ts';
import { diagnosticsAllowed } from '../pages/diagnostics.ts';
import { manifestQuery } from './manifest-request.ts';

// The one handler every page, navigation's data, resource route and form post goes through: the
// host's Express glue around React Router's own request handler (its custom-server shape:
// https://reactrouter.com/api/other-api/adapter). Before it: the page's one spelling (a 308), the
// method (405), a write's body (read once, capped and checked), the deadline and the session.
// React Router then runs (./page-renderer.ts); after it, the session's cookie and the answer,
// streamed, and stored when the route asks and the rule allows (server/pages/stored-pages.ts).
// What escapes React Router goes to the terminal error middleware.

/**
 * A redirect to a page's one spelling is permanent (RFC 9110 §15.4.9: 308 keeps the method) but
 * the route table is the app's and changes with releases: browsers keep it an hour, not for ever.
 */
const SPELLING_REDIRECT_CACHE_CONTROL = 'public, max-age=3600';
/** A prefetch says so (browsers' own send Sec-Purpose, React Router's a Purpose): its failure is a warn line, unreported. */
const PREFETCH = /\bprefetch\b/i;
/** React Router's navigation data (single fetch): `/about.data`, `/_.data` for `/`, `/about/_.data` for `/about/`. */
const DATA_SUFFIX = /(\/_)?\.data$/;

export interface HandlerDeps {
  config: Config;
  sessions: Sessions;
  renderer: PageRenderer;
  /** Stored pages (docs/caching.md); none: every page renders per request. */
  pages?: StoredPages;
}

/** The path of the page a request is for: a navigation's data names it with `.data`. */
export function pagePathOf(path: string): { pagePath: string; forData: boolean } {
  const suffix = DATA_SUFFIX.exec(path);
  if (suffix === null) return { pagePath: path, forData: false };
  const stripped = path.slice(0, suffix.index);
  return { pagePath: suffix[1] === undefined ? stripped : `${stripped}/`, forData: true };
}

/**
 * One page, one spelling (docs/caching.md): `/About`, `/about/` and `/%61bout` are `/about` to the
 * router, so a read of a page by any other spelling is redirected to its own
 * (shared/canonical-path.ts) before the store is asked: the store only ever holds, caps and drops
 * a page under that one spelling, and a link shared in any spelling lands on the page's address.
 * True when it redirected. `forData`: the path is the page's navigation data (`<page>.data`).
 */
function redirectedToSpelling(res: ExpressResponse, spelled: string, forData: boolean): boolean {
  const { path, query } = res.locals.target!;
  const sent = forData ? path.replace(/\.data$/, '').replace(/\/_$/, '/') : path;
  if (spelled === sent) return false;
  const location = forData ? `${spelled === '/' ? '/_' : spelled}.data` : spelled;
  res.set('Cache-Control', SPELLING_REDIRECT_CACHE_CONTROL).redirect(308, `${location}${query}`);
  return true;
}

/** The request's headers as a Fetch Headers (Node gives repeated ones as a list). */
export function fetchHeaders(req: ExpressRequest, leaveOut?: ReadonlySet<string>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || leaveOut?.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

export function createReactRouterHandler(deps: HandlerDeps): RequestHandler {
  const { config, renderer } = deps;

  /** The body of a write, held to its route's limits before a byte more is read; a read has none. */
  async function bodyOf(req: ExpressRequest, limits: BodyLimits): Promise<RequestBody | undefined> {
    if (READ_METHODS.includes(req.method)) return undefined;
    return readRequestBody(req, config.bodyTimeoutMs, limits);
  }

  /** The request's headers for the app; a write's type as read (a bare button's post, sent with none, is an empty form). */
  function headersFor(req: ExpressRequest, body: RequestBody | undefined): Headers {
    const headers = fetchHeaders(req);
    if (body !== undefined) headers.set('Content-Type', body.type);
    return headers;
  }

  return async (req, res, next) => {
    const diagnostics = diagnosticsAllowed(config, req);
    const { table, manifestPath } = await renderer.prepare(diagnostics);
    const { path } = res.locals.target!;
    let { query } = res.locals.target!;
    const manifest = path === manifestPath ? manifestQuery(query, diagnostics) : undefined;
    if (manifest !== undefined) query = manifest.query;
    const { pagePath, forData } = pagePathOf(path);
    const reads = READ_METHODS.includes(req.method);
    const matched = table.match(pagePath, new URLSearchParams(query).has('index'));
    // The app's 404 is a page: a client of the API (a path under /api/, or one asking for JSON) gets
    // the host's JSON 404 instead; and where the app's root has no boundary to show one, the host's
    // 404 page is the answer anyway (./host-build.ts), given without running React Router.
    if (matched === undefined && !forData && manifest === undefined && (table.hostAnswersUnmatched || wantsJson(req, res)))
      return next(notFound());
    if (matched !== undefined) {
      res.locals.route = `${matched.resource ? 'resource' : forData ? 'data' : 'page'}:${matched.leaf.id}`;
      if (matched.resource) res.locals.api = true;
      if (reads && !matched.resource && redirectedToSpelling(res, matched.spelling(), forData)) return;
      if (!matched.methods.includes(req.method) && !(forData && reads))
        return next(methodNotAllowed(req.method, matched.methods.join(', ')));
    } else if (!READ_METHODS.includes(req.method) && !ACTION_METHODS.includes(req.method)) {
      // No route, and a method React Router answers with a 405 of its own, without Allow
      // (OPTIONS, OPTIONS *): what no route has is a 404, whatever the method.
      return next(notFound());
    }
    if (PREFETCH.test(`${req.get('purpose') ?? ''} ${req.get('sec-purpose') ?? ''}`)) res.locals.prefetch = true;
    const bodyLimits = routeBodyLimits(config.body, matched?.target.module.bodyLimits, matched?.target.id ?? 'unmatched');
    const body = await bodyOf(req, bodyLimits);
    const deadline = requestDeadline(res, config.streamTimeoutMs);
    const session = await deps.sessions.read(req.headers.cookie, requestIsSecure(config, res));
    const values = {
      nonce: res.locals.cspNonce ?? '',
      requestId: String(req.id),
      hostname: displayHostname(config, res),
      trace: renderer.traceMeta(),
    };
    // A read: rendered as a template when its page's route asks to be stored (server/pages/page-template.ts).
    const storing =
      reads && matched !== undefined
        ? deps.pages?.storing(
            req,
            res,
            { id: matched.leaf.id, cache: matched.leaf.module.cache, resource: matched.resource },
            values,
            diagnostics,
          )
        : undefined;
    // The path set as a path: parsed against the origin, `//evil.example/x` would be another host's URL.
    const url = new URL(requestOrigin(config, res));
    url.pathname = path;
    url.search = query;
    const request = {
      req,
      res,
      url,
      method: req.method,
      headers: headersFor(req, body),
      body: body?.content,
      session,
      deadline,
      values: storing?.markers ?? values,
      bot: isBot(req.get('user-agent')),
      headerReads: storing?.headerReads,
      bodyLimits,
      diagnostics,
    };
    const response = await renderer.render(request, matched?.leaf.id);
    if (manifest?.diagnostics) response.headers.set('Cache-Control', PER_REQUEST_PAGE);
    const cookie = await deps.sessions.commit(session);
    if (cookie !== undefined) response.headers.append('Set-Cookie', cookie);
    // An upload the action did not read to its end: the rest is read and dropped, for a bounded time.
    if (body !== undefined && !body.complete()) body.linger();
    sendResponse(res, response, {
      perUser: !reads || deps.sessions.isPerUser(session),
      // After a write the browser GETs the target (303, RFC 9110 §15.4.4): a reload never posts again.
      afterWrite: !reads && !forData,
      // The client gets it filled as it streams; the template is stored once it ended, if the rule allows.
      body: storing && ((stream) => storing.tee(stream, response, () => deps.sessions.isPerUser(session), deadline)),
    });
  };
}
