// A navigation that cannot finish in the browser becomes a document load: the server renders
// the URL (its page, its error page, or the new release). Apart from the data strategy
// (./navigation.ts) because route discovery needs it too, and discovery is in the first load
// while the data strategy is fetched after hydration (./lazy-navigation.ts).

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
