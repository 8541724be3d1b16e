import { NAV } from './nav.ts';

/**
 * The layout's data: loaded once per request, shared by every page under it. It reads nothing
 * of the request, so the pages under it can be prerendered (docs/caching.md); a page that
 * depends on a request header reads it in its own loader (client/pages/home.server.ts).
 */
export function loader() {
  return { nav: NAV };
}

export type SiteData = ReturnType<typeof loader>;
