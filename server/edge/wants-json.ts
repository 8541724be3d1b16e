import type { Request, Response } from 'express';
import { requestPath } from '../observe/url-path.ts';

// Which answer a request gets when the host answers it (a 404 no route takes, an error page):
// read by the terminal middleware (server/error-pages/error-handler.ts) and by the page handler
// before a path no route matches goes to the app's 404 page (server/render/react-router-handler.ts).

/**
 * A page's navigation data (React Router's `<page>.data`): what the host answers in place of
 * React Router's is JSON, which its browser runtime hands the route's boundary as an
 * ErrorResponse of that status (react-router's single fetch client, for an answer without
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
