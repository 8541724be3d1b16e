// What the renderer gets of an Express request (shared/page-seam.ts): the page's URL on this
// site's origin, the body as sent (read and checked), the deadline's signals, and the context loaders and actions
// share (the session, the database, a logger bound to the request id, per-client rate limits).
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { PageRequest, RequestBody, RequestContext, RevalidateTarget } from '../../shared/page-seam.ts';
import type { BrowserSentryConfig, TraceMeta } from '../../shared/runtime.ts';
import type { Database } from '../../shared/database.ts';
import type { Config } from '../config/config.ts';
import type { Frontend } from '../assets/frontend.ts';
import { isBot } from '../edge/is-bot.ts';
import type { Deadline } from './request-deadline.ts';
import { checkTarget } from './cache-policy.ts';
import { displayHostname, requestIsSecure } from '../edge/request-origin.ts';
import { clientKey, type ClientLimits } from '../writes/client-limits.ts';
import type { Invalidated } from './cache-store.ts';
import type { Sessions } from '../writes/session.ts';

export interface PageRequestDeps {
  config: Config;
  frontend: Frontend;
  logger: Logger;
  sessions: Sessions;
  /** The process's one database (server/writes/database.ts), as `context.db`. */
  db: Database;
  /** The rate limits loaders and actions ask for (`context.limit`). */
  limits: ClientLimits;
  /** The request's trace, when Sentry is on (see server/telemetry/sentry.ts). */
  traceMeta?: () => TraceMeta | undefined;
  /** Drops stored pages (`context.revalidate`, server/pages/page-cache.ts). */
  revalidate?: (target: RevalidateTarget) => Promise<Invalidated>;
}

function browserSentry(config: Config): BrowserSentryConfig | undefined {
  const { sentry } = config;
  if (sentry === undefined) return undefined;
  const { dsn, environment, tunnelPath, tracesSampleRate } = sentry;
  return { dsn, environment, tracesSampleRate, tunnel: tunnelPath, release: config.release };
}

/**
 * The page's own path and query, from the target the edge split (`res.locals.target`, after
 * `mount`, where the handler is mounted): leading slashes as one, so it is never another host
 * (`//evil.com/x` resolves on this origin).
 */
export function pagePath(res: Response, mount = '', search = res.locals.target!.query): string {
  const path = res.locals.target!.path.slice(mount.length);
  // Leading slashes as one (`//x` is a path here, never a host); most paths have exactly one.
  return `${path.startsWith('/') && path[1] !== '/' ? path : `/${path.replace(/^\/+/, '')}`}${search}`;
}

/** A query string as sent (`?…`), less the parameter named `drop`, otherwise untouched. */
export function queryWithout(query: string, drop: string): string {
  if (query === '') return '';
  // URLSearchParams decodes names leniently (a malformed % stays as it is), never throwing.
  const kept = query
    .slice(1)
    .split('&')
    .filter((pair) => [...new URLSearchParams(pair).keys()][0] !== drop);
  return kept.length > 0 ? `?${kept.join('&')}` : '';
}

/** The context of one request; its logger is made only if a loader or action logs. */
async function requestContext(deps: PageRequestDeps, req: Request, res: Response): Promise<RequestContext> {
  const session = await deps.sessions.read(req.headers.cookie, requestIsSecure(deps.config, res));
  let log: RequestContext['log'] | undefined;
  return {
    session,
    id: String(req.id),
    db: deps.db,
    limit: (name, rule) => deps.limits.take(name, clientKey(req), rule),
    revalidate(target) {
      const checked = checkTarget(target);
      // The app's own mistake, as a bad argument is: thrown where it was made.
      if (typeof checked === 'string') throw new TypeError(`context.revalidate: ${checked}`);
      // How many were dropped; one the shared store did not confirm is retried by the host (revalidation-retries.ts).
      return deps.revalidate?.(checked).then(({ dropped }) => dropped) ?? Promise.resolve(0);
    },
    get log() {
      return (log ??= deps.logger.child({ reqId: String(req.id) }));
    },
  };
}

export function createPageRequests(deps: PageRequestDeps) {
  const sentry = browserSentry(deps.config);
  return async function pageRequest(
    req: Request,
    res: Response,
    url: URL,
    deadline: Deadline,
    body: RequestBody | null,
  ): Promise<PageRequest> {
    return {
      url,
      method: req.method,
      headers: req.headers,
      body,
      context: await requestContext(deps, req, res),
      ...deadline,
      waitForAll: isBot(req.get('user-agent')),
      nonce: res.locals.cspNonce ?? '',
      page: {
        assets: deps.frontend.assets,
        styleText: deps.frontend.styleText,
        preloadsFor: deps.frontend.preloadsFor,
        stylesFor: deps.frontend.stylesFor,
        build: deps.frontend.build,
        requestId: String(req.id),
        hostname: displayHostname(deps.config, res),
        trace: deps.traceMeta?.(),
        sentry,
      },
    };
  };
}
