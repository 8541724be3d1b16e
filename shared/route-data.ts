// How a client navigation gets loader data: GET DATA_PATH + the page's path and query, with
// ROUTES_PARAM naming the routes to load. The answer is newline-delimited JSON: the head (data
// and failures by route id, or a redirect), then one line per pending value as it settles.

export const DATA_PATH = '/_data';
export const ROUTES_PARAM = '_routes';

export type DataLine =
  | { redirect: string }
  | { data: Record<string, unknown>; errors: Record<string, unknown> | null }
  | { id: string; value: unknown }
  | { id: string; failure: unknown };

/** The data URL of a page URL (a path with its query). */
export function dataUrl(pageUrl: string, routeIds: readonly string[]): string {
  const url = new URL(pageUrl, 'http://x');
  url.searchParams.set(ROUTES_PARAM, routeIds.join(','));
  return `${DATA_PATH}${url.pathname}${url.search}`;
}
