import type { ErrorRequestHandler, Request, Response } from 'express';
import type { Config } from '../config.ts';
import { displayHostname } from '../hostname.ts';
import { ClientAbortError, HTML_HEADERS, streamReact, type Renderer } from '../render.ts';
import { fallbackErrorPage } from './fallback-page.ts';
import type { FailureRecorder } from './failures.ts';
import { HttpError, publicMessage } from './http-error.ts';

interface ErrorHandlerDeps {
  config: Config;
  failures: FailureRecorder;
  loadRenderer(): Promise<Renderer>;
  /** Dev only: rewrites a stack to point at the source files (vite.ssrFixStacktrace). */
  fixStack?(error: Error): void;
}

/** JSON for API routes and for clients that prefer it; HTML pages for everyone else. */
export function wantsJson(req: Request, res: Response): boolean {
  return res.locals.api === true || req.path.startsWith('/api/') || req.accepts(['html', 'json']) === 'json';
}

/**
 * The one terminal middleware: status → digest → log → report → response. Express's default
 * handler is never reached, and once headers are sent nothing is written but the socket's end.
 */
export function createErrorHandler(deps: ErrorHandlerDeps): ErrorRequestHandler {
  const { config, failures } = deps;

  return (error, req, res, _next) => {
    if (error instanceof ClientAbortError) return;
    const { status, digest } = failures.record(error, req, res);
    // A second page must never be written into the first: end the connection instead.
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (res.destroyed) return;

    res.status(status).set('Cache-Control', 'no-store');
    if (error instanceof HttpError) res.set(error.headers);
    const message = publicMessage(error, status);

    if (wantsJson(req, res)) {
      res.json({ error: { status, message, ...(digest === undefined ? {} : { digest }) } });
      return;
    }
    const hostname = displayHostname(config, req);
    const sendFallback = () => {
      if (res.headersSent) return void res.destroy();
      res.status(status).set(HTML_HEADERS).send(fallbackErrorPage(hostname, digest, message));
    };
    if (req.method === 'HEAD') return void res.set(HTML_HEADERS).end();

    const detail = config.isProduction ? undefined : devDetail(error, deps.fixStack);
    deps
      .loadRenderer()
      .then((renderer) =>
        streamReact({ config, failures }, req, res, sendFallback, status, (options) =>
          renderer.renderErrorPage(
            digest === undefined ? { side: 'http', status, message } : { side: 'server', hostname, digest, detail },
            options,
          ),
        ),
      )
      .catch(sendFallback);
  };
}

/** Dev only: the message and the source-mapped stack, shown on the error page. */
function devDetail(error: unknown, fixStack: ErrorHandlerDeps['fixStack']): string {
  if (!(error instanceof Error)) return String(error);
  fixStack?.(error);
  return error.stack ?? `${error.name}: ${error.message}`;
}
