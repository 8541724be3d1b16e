import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { httpError } from '../failures/errors.ts';
import { splitTarget } from '../observe/url-path.ts';

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

/**
 * After the access logger, so a refusal has a request id and an access line: a malformed
 * target, or a path whose percent-encoding is broken (it cannot be routed), is a 400; any other
 * target is split here, once, into the path and query every module after reads (`res.locals.target`).
 */
export const readTarget: RequestHandler = (req, res, next) => {
  if ((req as Marked)[MALFORMED]) return next(httpError(400, 'Malformed request target'));
  const target = splitTarget(req.url);
  if (target.path.includes('%')) {
    try {
      decodeURIComponent(target.path);
    } catch (cause) {
      return next(httpError(400, 'Malformed URL: invalid percent-encoding', { cause }));
    }
  }
  res.locals.target = target;
  next();
};
