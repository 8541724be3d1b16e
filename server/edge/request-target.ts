import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { httpError } from '../failures/errors.ts';

// Express routes on `req.url` parsed by the legacy URL parser; when that throws (an absolute-form
// target such as `http://[::1`), the router skips every middleware, logger included, and
// Express's default handler answers: no access line, no request id, another CSP. So the target
// is made routable before Express sees it (RFC 9112 §3.2): origin-form (`/path?query`) stays,
// a valid absolute-form (`http://host/path`) becomes its origin-form, and anything else is
// marked, replaced by a path that names it, and answered 400 by the pipeline like any bad input.

const MALFORMED = Symbol('malformed request target');
/** Enough of a bad target to recognise it in the access line; the rest is noise. */
const MAX_SHOWN_TARGET = 256;

type Marked = IncomingMessage & { [MALFORMED]?: true };

export function normalizeTarget(req: IncomingMessage): void {
  const target = req.url ?? '';
  // Origin-form, and asterisk-form (`OPTIONS *`), which the router parses as the path `*`.
  if (target.startsWith('/') || target === '*') return;
  let url: URL | undefined;
  try {
    url = new URL(target);
  } catch {
    url = undefined;
  }
  if (url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:')) {
    req.url = `${url.pathname}${url.search}`;
    return;
  }
  (req as Marked)[MALFORMED] = true;
  // The query may hold secrets and is dropped, as everywhere in the logs.
  const shown = target.split('?')[0]!.slice(0, MAX_SHOWN_TARGET);
  req.url = `/${encodeURIComponent(shown)}`;
}

/** After the access logger, so the 400 has a request id and an access line. */
export const rejectMalformedTarget: RequestHandler = (req, _res, next) => {
  next((req as Marked)[MALFORMED] ? httpError(400, 'Malformed request target') : undefined);
};

/** A path whose percent-encoding is broken cannot be routed: 400, not a 500 from deep inside. */
export const rejectMalformedPath: RequestHandler = (req, _res, next) => {
  if (!req.url.includes('%')) return next(); // nothing to decode: most requests
  try {
    // Its value is unused: the call reads the req.path getter so that the bundler cannot drop
    // it as a pure function call (it did, with a local variable; the soak caught the 404s).
    decodeURIComponent(req.path);
    next();
  } catch (cause) {
    next(httpError(400, 'Malformed URL: invalid percent-encoding', { cause }));
  }
};
