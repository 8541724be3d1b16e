import type { Response } from 'express';

// One page, one spelling (docs/caching.md, "One page, one spelling"): `/About`, `/about/` and
// `/%61bout` are `/about` to the router, so a read of a page by any other spelling is redirected
// to its own (shared/canonical-path.ts) before the store is asked. The store then only ever
// holds, caps and drops a page under that one spelling, and a link shared in any spelling lands
// on the page's address.

/**
 * A redirect is permanent (RFC 9110 §15.4.9: 308 keeps the method) but the route table is the
 * app's and changes with releases: browsers keep it an hour, not for ever.
 */
const REDIRECT_CACHE_CONTROL = 'public, max-age=3600';

/**
 * Redirects a GET or HEAD of a page whose path (res.locals.target) is not `spelled`: true when it
 * did. `forData`: the path is the page's navigation data (React Router's `<page>.data`).
 */
export function redirectedToSpelling(res: Response, spelled: string, forData: boolean): boolean {
  const { path, query } = res.locals.target!;
  const sent = forData ? path.replace(/\.data$/, '').replace(/\/_$/, '/') : path;
  if (spelled === sent) return false;
  const location = forData ? `${spelled === '/' ? '/_' : spelled}.data` : spelled;
  res.set('Cache-Control', REDIRECT_CACHE_CONTROL).redirect(308, `${location}${query}`);
  return true;
}
