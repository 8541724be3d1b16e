import type { RequestHandler } from 'express';

/**
 * A router that answers one path, entered only for that path. Mounted at the root, an Express
 * router runs its own dispatch loop for every request that passes it, one that is not its path
 * included; this tests the request's target (request-target.ts) the way Express tests a route's
 * path (case-insensitive, one trailing slash allowed) and passes everything else straight on.
 */
export function onPath(path: string, handler: RequestHandler): RequestHandler {
  const wanted = path.toLowerCase();
  return (req, res, next) => {
    const sent = res.locals.target!.path;
    if (sent.length < wanted.length || sent.length > wanted.length + 1) return next();
    const lower = sent.toLowerCase();
    if (lower === wanted || lower === `${wanted}/`) return handler(req, res, next);
    next();
  };
}
