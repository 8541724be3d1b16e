import type { ErrorRequestHandler, Request, Response } from 'express';
import type { Config } from '../config/config.ts';
import { displayHostname } from '../edge/request-origin.ts';
import { HTML_HEADERS, sendText } from '../edge/send-response.ts';
import { createErrorPageCache, ERROR_PAGE_TIMEOUT_MS, renderToText } from './error-page-cache.ts';
import { fallbackErrorPage } from './fallback-page.ts';
import type { ServerErrorPageProps } from './render-error-page.tsx';
import type { FailureRecorder, Recorded } from '../failures/recorder.ts';
import { isHostError, publicMessage } from '../failures/error-status.ts';
import { ClientAbortError } from '../failures/errors.ts';
import { devDetail, isInstance } from '../failures/thrown-value.ts';
import { requestPath } from '../observe/url-path.ts';

interface ErrorHandlerDeps {
  config: Config;
  failures: FailureRecorder;
  /** Past this the error page's render is abandoned for the static fallback. */
  errorPageTimeoutMs?: number;
}

/**
 * A page's navigation data (React Router's `<page>.data`): what the host answers in place of
 * React Router's is JSON, which its browser runtime hands the route's boundary as an
 * ErrorResponse of that status (react-router's single-fetch module, dom/ssr/single-fetch, an answer without
 * X-Remix-Response); an error page there would be HTML no boundary can read.
 */
const NAVIGATION_DATA = /\.data$/;

/** JSON for API routes, navigation data and clients that prefer it; HTML pages for everyone else. */
export function wantsJson(req: Request, res: Response): boolean {
  const path = requestPath(req, res.locals);
  if (res.locals.api === true || path.startsWith('/api/') || NAVIGATION_DATA.test(path)) return true;
  // Content negotiation only when JSON is named: without "json" or "application/*" in Accept,
  // HTML wins (or nothing matches and HTML is the default), and parsing Accept is skipped.
  const accept = req.headers.accept;
  if (accept === undefined || !(accept.includes('json') || accept.includes('application/*'))) return false;
  return req.accepts(['html', 'json']) === 'json';
}

/**
 * The one terminal middleware: status → digest → log → report → response. Express's default
 * handler is never reached, and once headers are sent nothing is written but the socket's end.
 */
export function createErrorHandler(deps: ErrorHandlerDeps): ErrorRequestHandler {
  const { config, failures } = deps;
  const timeoutMs = deps.errorPageTimeoutMs ?? ERROR_PAGE_TIMEOUT_MS;
  const cachedPage = createErrorPageCache(timeoutMs);

  /** The React error page; if rendering it fails or hangs, the static page with the same text. */
  function sendErrorPage(req: Request, res: Response, error: unknown, failure: Recorded, message: string): void {
    const { status, digest } = failure;
    const hostname = displayHostname(config, res);
    const nonce = res.locals.cspNonce ?? '';
    const send = (html: string) => (res.headersSent ? res.destroy() : sendText(res, status, HTML_HEADERS, html));
    const sendFallback = (pageError: unknown) => {
      failures.secondary(pageError, req, res, failure);
      if (res.headersSent) return void res.destroy();
      sendText(res, status, HTML_HEADERS, fallbackErrorPage(hostname, digest, message));
    };
    if (config.isProduction) {
      const props: ServerErrorPageProps = digest === undefined ? { side: 'http', status, message } : { side: 'server', hostname, digest };
      cachedPage(props, { nonce, hostname, digest }).then(send, sendFallback);
      return;
    }
    // Dev renders every time: components change under HMR, and the page shows the stack.
    const props: ServerErrorPageProps =
      digest === undefined ? { side: 'http', status, message } : { side: 'server', hostname, digest, detail: devDetail(error) };
    renderToText(props, nonce, timeoutMs).then(send, sendFallback);
  }

  function respond(error: unknown, req: Request, res: Response): void {
    if (isInstance(error, ClientAbortError)) return;
    const failure = failures.record(error, req, res);
    // A second page must never be written into the first: end the connection instead.
    if (res.headersSent) return void res.destroy();
    if (res.destroyed) return;

    res.status(failure.status).set('Cache-Control', 'no-store');
    if (isHostError(error) && error.headers) res.set(error.headers);
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
