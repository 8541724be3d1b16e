// What only a navigation needs, as one chunk the browser fetches after hydration
// (./lazy-navigation.ts): route discovery, the prefetcher, and the data strategy that reads its cache.
import type { Navigation, RouteObject } from 'react-router';
import type { RouteDescriptor } from '../../../shared/route-discovery.ts';
import { createDataStrategy } from './navigation.ts';
import { createPrefetcher } from './prefetch.ts';
import { createRouteDiscovery } from './route-discovery.ts';
import type { PatchRoutes, RouteTable } from './route-table.ts';

export interface NavigationDeps {
  /** The release this page is from: route discovery asks for its routes (shared/route-discovery.ts). */
  build: string;
  /** The router's routes, as learnt so far. */
  routes(): RouteObject[];
  /** The routes built from the server's descriptions (./route-table.ts). */
  table: Pick<RouteTable, 'learn' | 'dataRouteIds'>;
  /** The document's path and the routes it matched, which the table was built from. */
  initialPath: string;
  initial: readonly RouteDescriptor[];
  /** The router's `patchRoutes`. */
  patchRoutes: PatchRoutes;
  /** The router's navigation in progress (its state's `navigation`). */
  navigation(): Navigation;
  /** Whether the router is revalidating (its state's `revalidation`). */
  revalidating(): boolean;
  /** The loader data the server wrote into the page. */
  hydrated: Readonly<Record<string, unknown>>;
}

export function createNavigation(deps: NavigationDeps) {
  const discovery = createRouteDiscovery(deps.build, deps.table, deps.initialPath, deps.initial);
  const discover = (pathname: string, batch: boolean) => discovery.discover(pathname, deps.patchRoutes, batch);
  const prefetcher = createPrefetcher(deps.routes, deps.table.dataRouteIds, discover);
  const dataStrategy = createDataStrategy(prefetcher, deps.table.dataRouteIds, deps.revalidating, deps.hydrated);
  return { prefetcher, dataStrategy, patchRoutesOnNavigation: discovery.patchRoutesOnNavigation(deps.navigation) };
}
