import type { ErrorRequestHandler, Request, Response } from 'express';
import type { Config } from '../config.ts';
import { displayHostname } from '../hostname.ts';
import type { ServerErrorPageProps } from '../../client/entry-server.tsx';
import { ClientAbortError, HTML_HEADERS, streamReact, type Renderer } from '../render.ts';
import { createErrorPageCache } from './error-page-cache.ts';
import { fallbackErrorPage } from './fallback-page.ts';
import type { Failure, FailureRecorder } from './failures.ts';
import { HttpError, publicMessage } from './http-error.ts';

interface ErrorHandlerDeps {
  config: Config;
  failures: FailureRecorder;
  loadRenderer(): Promise<Renderer>;
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
  const cachedPage = createErrorPageCache(deps.loadRenderer);

  /** The React error page; if rendering it fails, the static page with the same text. */
  function sendErrorPage(req: Request, res: Response, error: unknown, failure: Failure, message: string): void {
    const { status, digest } = failure;
    const hostname = displayHostname(config, req);
    const sendFallback = () => {
      if (res.headersSent) return void res.destroy();
      res.status(status).set(HTML_HEADERS).send(fallbackErrorPage(hostname, digest, message));
    };
    if (config.isProduction) {
      const props: ServerErrorPageProps = digest === undefined ? { side: 'http', status, message } : { side: 'server', hostname, digest };
      cachedPage(props, { nonce: String(res.locals.cspNonce ?? ''), hostname, digest })
        .then((html) => (res.headersSent ? res.destroy() : res.status(status).set(HTML_HEADERS).send(html)))
        .catch(sendFallback);
      return;
    }
    // Dev renders every time: components change under HMR, and the page shows the stack.
    const props: ServerErrorPageProps =
      digest === undefined ? { side: 'http', status, message } : { side: 'server', hostname, digest, detail: devDetail(error) };
    deps
      .loadRenderer()
      .then((renderer) => streamReact({ config, failures }, req, res, sendFallback, { status, start: (options) => renderer.renderErrorPage(props, options) }))
      .catch(sendFallback);
  }

  function respond(error: unknown, req: Request, res: Response): void {
    if (error instanceof ClientAbortError) return;
    const failure = failures.record(error, req, res);
    // A second page must never be written into the first: end the connection instead.
    if (res.headersSent) return void res.destroy();
    if (res.destroyed) return;

    res.status(failure.status).set('Cache-Control', 'no-store');
    if (error instanceof HttpError) res.set(error.headers);
    const message = publicMessage(error, failure.status);
    if (wantsJson(req, res)) {
      const { status, digest } = failure;
      return void res.json({ error: { status, message, ...(digest === undefined ? {} : { digest }) } });
    }
    if (req.method === 'HEAD') return void res.set(HTML_HEADERS).end();
    sendErrorPage(req, res, error, failure, message);
  }

  // If handling the error fails too, a fixed answer: Express's default handler is never reached.
  return (error, req, res, _next) => {
    try {
      respond(error, req, res);
    } catch {
      if (res.headersSent) res.destroy();
      else res.status(500).type('text/plain').set('Cache-Control', 'no-store').end('Internal Server Error');
    }
  };
}

/** Dev only: the message and the stack (already mapped to the sources), shown on the error page. */
function devDetail(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.stack ?? `${error.name}: ${error.message}`;
}
