import type { RequestHandler } from 'express';
import type { BrowserSentryConfig, PageRequest, TraceMeta } from '../shared/runtime.ts';
import type { Config } from './config.ts';
import { HttpError } from './errors/http-error.ts';
import type { FailureRecorder } from './errors/failures.ts';
import type { Frontend } from './frontend.ts';
import { HTML_HEADERS, streamReact } from './render.ts';

const PAGE_METHODS = 'GET, HEAD';

/**
 * Serves a React page at its path: `res.locals.page` is set by the router that matched it.
 * Pages answer GET and HEAD only (405 with Allow otherwise, RFC 9110 §15.5.6); HEAD gets the
 * headers without rendering anything (RFC 9110 §9.3.2).
 */
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

export function createPageHandler(deps: PageDeps) {
  const sentry = browserSentry(deps.config);
  return (page: PageRequest): RequestHandler =>
    async (req, res, next) => {
      res.locals.route = `page:${page.route}`;
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        throw new HttpError(405, `${req.method} is not allowed here`, { headers: { Allow: PAGE_METHODS } });
      }
      if (req.method === 'HEAD') {
        res.status(200).set(HTML_HEADERS).end();
        return;
      }
      const renderer = await deps.frontend.loadRenderer();
      const runtime = { page, assets: deps.frontend.assets, requestId: String(req.id), trace: deps.traceMeta?.(), sentry };
      streamReact(deps, req, res, next, 200, (options) => renderer.renderPage(runtime, options));
    };
}
