import type { Response } from 'express';
import type { Renderer } from '../../shared/page-seam.ts';
import { pagePath } from './page-request.ts';

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

/** Redirects a GET or HEAD of a page (under `mount`: the navigation data's prefix) spelled otherwise: true when it did. */
export function redirectedToSpelling(res: Response, renderer: Renderer, mount = ''): boolean {
  const path = pagePath(res, mount, '');
  const spelled = renderer.canonicalPath(path);
  if (spelled === undefined || spelled === path) return false;
  res.set('Cache-Control', REDIRECT_CACHE_CONTROL).redirect(308, `${mount}${spelled}${res.locals.target!.query}`);
  return true;
}
