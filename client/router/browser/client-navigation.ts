// What only a navigation needs, as one chunk the browser fetches after hydration
// (./lazy-navigation.ts): the prefetcher and the data strategy that reads its cache.
import type { RouteObject } from 'react-router';
import { createDataStrategy } from './navigation.ts';
import { createPrefetcher } from './prefetch.ts';

export interface NavigationDeps {
  /** The router's routes, as learnt so far. */
  routes(): RouteObject[];
  /** The routes with server data, known so far. */
  dataRouteIds: ReadonlySet<string>;
  /** Learns the routes of a path into the router; resolves whether a page answers it (./route-discovery.ts). */
  discover(pathname: string, batch: boolean): Promise<boolean>;
  /** Whether the router is revalidating (its state's `revalidation`). */
  revalidating(): boolean;
  /** The loader data the server wrote into the page. */
  hydrated: Readonly<Record<string, unknown>>;
}

export function createNavigation(deps: NavigationDeps) {
  const prefetcher = createPrefetcher(deps.routes, deps.dataRouteIds, deps.discover);
  const dataStrategy = createDataStrategy(prefetcher, deps.dataRouteIds, deps.revalidating, deps.hydrated);
  return { prefetcher, dataStrategy };
}
