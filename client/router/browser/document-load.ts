// A navigation that cannot finish in the browser becomes a document load: the server renders
// the URL (its page, its error page, or the new release). Apart from the data strategy
// (./navigation.ts) and route discovery (./route-discovery.ts) because their stand-ins in the
// first load fall back to it too, when the chunk they are in does not come (./lazy-navigation.ts).
import type { Navigation, PatchRoutesOnNavigationFunction } from 'react-router';

/** A route's code and data get this long before the browser loads the document instead (Next.js's MS_MAX_IDLE_DELAY). */
export const NAVIGATION_TIMEOUT_MS = 3_800;

/** Hands the navigation to the browser, unless it was given up; the promise never settles, so nothing renders over it. */
export function loadDocument(href: string, signal: AbortSignal): Promise<never> {
  if (!signal.aborted) window.location.assign(href);
  return new Promise<never>(() => {});
}

/**
 * Settles with `work`, unless the time runs out first: then the browser loads `href` as a
 * document. A navigation given up for another (its signal) never falls back.
 */
export function withDeadline<T>(work: Promise<T>, href: string, signal: AbortSignal): Promise<T> {
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<never>(() => {
    timer = setTimeout(() => {
      timedOut = true;
      void loadDocument(href, signal);
    }, NAVIGATION_TIMEOUT_MS);
  });
  signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  // Once the document load has begun, a late result must not render over it.
  const finished = work.then((value) => (timedOut ? gaveUp : value));
  return Promise.race([finished, gaveUp]).finally(() => clearTimeout(timer));
}

/**
 * The URL a navigation to a path the router does not know yet would load as a document (with
 * the query and hash it is going to), or undefined for one that must not: only a page load may,
 * a fetcher's or a submission's path without a page ends as React Router's 404 in its route (a
 * GET in its place would lose the post). `navigation`: the router's.
 */
export function documentLoadOf(
  { path, fetcherKey }: Parameters<PatchRoutesOnNavigationFunction>[0],
  { location, formMethod }: Navigation,
): string | undefined {
  if (fetcherKey !== undefined || (formMethod !== undefined && formMethod.toUpperCase() !== 'GET')) return undefined;
  return new URL(location?.pathname === path ? path + location.search + location.hash : path, window.location.href).href;
}
