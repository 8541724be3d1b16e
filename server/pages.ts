import type { RequestHandler } from 'express';
import type { PageRequest } from '../shared/runtime.ts';
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
export function createPageHandler(deps: { config: Config; failures: FailureRecorder; frontend: Frontend }) {
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
      streamReact(deps, req, res, next, 200, (options) =>
        renderer.renderPage({ page, assets: deps.frontend.assets, requestId: String(req.id) }, options),
      );
    };
}
