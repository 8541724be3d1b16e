// Loads a page's routes, code and data before it is needed: its routes (one request for all the
// links in view), code and stylesheets when a link comes into view; its loader data on intent
// (hover, focus, touch), or in view too for `prefetch="viewport"`, as React Router's framework
// mode splits them. The numbers are Next.js's (see docs/pages.md, "Client navigation").
import { matchRoutes, type RouteObject } from 'react-router';
import { fetchRouteData, PREFETCH_HEADERS, type RouteData } from './route-data-client.ts';
import { setNewest } from '../../../shared/bounded-map.ts';
import type { RouteHandle } from '../both/route-handle.ts';

/** Prefetches in flight at once; the rest wait in a queue (Next.js's prefetch queue width). */
export const MAX_PREFETCHES_IN_FLIGHT = 5;
/** A prefetched page is fetched again after this (Next.js's STATIC_STALETIME_MS, 5 minutes). */
export const PREFETCH_STALE_MS = 300_000;
/** Prefetched pages kept at once; the oldest goes first. Bounds memory on a page of many links. */
const MAX_CACHED_PAGES = 50;

interface Entry {
  at: number;
  routeIds: readonly string[];
  result: Promise<RouteData>;
}

type Connection = { saveData?: boolean };

export interface Prefetcher {
  /** Queues a prefetch of a same-origin page URL (path and query): its code and its data. */
  prefetch(url: string): void;
  /** Once a link scrolls into view, prefetches its target's code (and its data too with `data`); returns the clean-up. */
  observe(element: Element, url: string, data: boolean): () => void;
  /**
   * For a navigation: a fresh prefetched result, or a fetch that starts now, ahead of the queue.
   * A revalidation (`revalidate()`) and a prefetch that failed always fetch again.
   */
  take(url: string, routeIds: readonly string[], revalidation: boolean): Promise<RouteData>;
  /** Drops every prefetched result: after a write, any of them may be stale. */
  forget(): void;
  /** Loads the code of the routes this URL matches. */
  loadCode(url: string): Promise<unknown>;
}

/**
 * `routes`: the router's, as learnt so far; `discover`: learns the routes of a path into the
 * router and resolves whether a page answers it (./route-discovery.ts).
 */
export function createPrefetcher(
  routes: () => RouteObject[],
  loaderIds: ReadonlySet<string>,
  discover: (pathname: string, batch: boolean) => Promise<boolean>,
): Prefetcher {
  const cache = new Map<string, Entry>();
  const queue: string[] = [];
  let inFlight = 0;

  const matchesOf = (url: string) => matchRoutes(routes(), new URL(url, window.location.origin).pathname);
  const fresh = (entry: Entry | undefined): entry is Entry => entry !== undefined && Date.now() - entry.at < PREFETCH_STALE_MS;
  const isThisPage = (url: string) => {
    const target = new URL(url, window.location.href);
    return target.pathname + target.search === window.location.pathname + window.location.search;
  };

  /**
   * The routes whose loaders a navigation from this page to `url` runs: React Router keeps the
   * data of a route matched with the same path on both pages, unless the query changes (its
   * default shouldRevalidate). A layout's loader is not asked for again by every link.
   */
  function routesToLoad(url: string): string[] {
    const target = new URL(url, window.location.href);
    const current = target.search === window.location.search ? (matchRoutes(routes(), window.location.pathname) ?? []) : [];
    return (matchesOf(url) ?? [])
      .filter((m) => loaderIds.has(m.route.id!))
      .filter((m) => !current.some((c) => c.route.id === m.route.id && c.pathname === m.pathname && c.params['*'] === m.params['*']))
      .map((m) => m.route.id!);
  }

  function allowed(url: string): boolean {
    const target = new URL(url, window.location.href);
    if (isThisPage(url)) return false;
    const connection = (navigator as Navigator & { connection?: Connection }).connection;
    return target.origin === window.location.origin && connection?.saveData !== true;
  }

  // The code only: a page's stylesheets are fetched, and applied when it renders (./route-styles.ts).
  const loadCode = (url: string) =>
    Promise.all(
      (matchesOf(url) ?? []).map(async (m) => {
        const { preload } = (m.route.handle ?? {}) as RouteHandle;
        if (typeof m.route.lazy === 'function') await (preload ?? m.route.lazy)();
      }),
    );

  /** The fresh entry for a URL; a stale one is dropped. */
  function cached(url: string): Entry | undefined {
    const entry = cache.get(url);
    if (entry !== undefined && !fresh(entry)) cache.delete(url);
    return fresh(entry) ? entry : undefined;
  }

  function remember(url: string, entry: Entry): void {
    setNewest(cache, url, entry, MAX_CACHED_PAGES);
  }

  function load(url: string): { entry: Entry; settled: Promise<unknown> } {
    const routeIds = routesToLoad(url);
    const code = loadCode(url);
    const fetched =
      routeIds.length > 0
        ? fetchRouteData(url, routeIds, { headers: PREFETCH_HEADERS })
        : Promise.resolve({ data: {}, errors: null, done: Promise.resolve() });
    const entry: Entry = { at: Date.now(), routeIds, result: fetched };
    fetched.catch(() => cache.get(url) === entry && cache.delete(url));
    // In flight until the code is loaded and the whole data response has been read.
    const settled = Promise.allSettled([code, fetched.then((result) => result.done)]);
    return { entry, settled };
  }

  function pump(): void {
    while (inFlight < MAX_PREFETCHES_IN_FLIGHT && queue.length > 0) {
      const url = queue.shift()!;
      if (cached(url)) continue;
      const { entry, settled } = load(url);
      remember(url, entry);
      inFlight++;
      void settled.then(() => {
        inFlight--;
        pump();
      });
    }
  }

  const waiting = (url: string) => cached(url) !== undefined || queue.includes(url);
  const prefetch = (url: string, batch = false) => {
    if (waiting(url) || !allowed(url)) return;
    // Only a page's: a path the server has no page for is left to the click (a document load).
    discover(new URL(url, window.location.href).pathname, batch).then(
      (page) => {
        if (!page || waiting(url)) return;
        queue.push(url);
        pump();
      },
      () => {},
    );
  };
  /** A link in view: its routes (in the batch of the links in view with it), then their code and stylesheets. */
  const prefetchCode = (url: string) => {
    if (!allowed(url)) return;
    discover(new URL(url, window.location.href).pathname, true).then(
      (page) => {
        if (page) loadCode(url).catch(() => {});
      },
      () => {},
    );
  };

  let observer: IntersectionObserver | undefined;
  const watched = new WeakMap<Element, { url: string; data: boolean }>();
  function observe(element: Element, url: string, data: boolean): () => void {
    observer ??= new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer!.unobserve(entry.target);
        const target = watched.get(entry.target);
        if (target === undefined) continue;
        if (target.data) prefetch(target.url, true);
        else prefetchCode(target.url);
      }
    });
    watched.set(element, { url, data });
    observer.observe(element);
    return () => observer?.unobserve(element);
  }

  function take(url: string, routeIds: readonly string[], revalidation: boolean): Promise<RouteData> {
    const entry = revalidation ? undefined : cached(url);
    const queued = queue.indexOf(url);
    if (queued !== -1) queue.splice(queued, 1);
    if (entry === undefined || !routeIds.every((id) => entry.routeIds.includes(id))) return fetchRouteData(url, routeIds);
    // A prefetch that failed was logged as a prefetch's: the click asks again, and its failure is logged as any other.
    return entry.result.then((result) => (result.errors === null ? result : fetchRouteData(url, routeIds)));
  }

  function forget(): void {
    cache.clear();
    queue.length = 0;
  }

  return { prefetch: (url) => prefetch(url), observe, take, forget, loadCode };
}
