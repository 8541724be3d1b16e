// The router's routes, built in the browser from the server's descriptions of them
// (shared/route-discovery.ts): the document's own before hydration, the others as route
// discovery (./route-discovery.ts, in the navigation chunk) learns them. Apart from that
// fetching because this is the part the first load needs (docs/performance.md, "First-load
// JavaScript").
import type { MiddlewareFunction, RouteObject } from 'react-router';
import { runChain } from '../both/middleware-chain.ts';
import type { RouteDescriptor } from '../../../shared/route-discovery.ts';
import type { RouteHandle } from '../both/route-handle.ts';
import { hostRoute, lazyPage } from '../both/react-router-routes.ts';
import type { PageModule } from '../both/route-entry.ts';
import { RouteErrorBoundary } from '../both/RouteErrorBoundary.tsx';
import { applyStyles, preloadStyles } from './route-styles.ts';

/** Loader data comes from the server, through the data strategy (./navigation.ts), never from here. */
const fromServer = () => {
  throw new Error('Route data is loaded by the data strategy (client/router/browser/navigation.ts)');
};

const preloaded = new Set<string>();
/** The page's module and, in parallel, the chunks it imports: no waterfall of imports. */
function loadModule(route: RouteDescriptor): Promise<PageModule> {
  for (const href of route.imports) {
    if (preloaded.has(href)) continue;
    preloaded.add(href);
    document.head.append(Object.assign(document.createElement('link'), { rel: 'modulepreload', href }));
  }
  return (import(/* @vite-ignore */ route.module) as Promise<PageModule>).catch((error: unknown) => {
    // A chunk of a release no longer served: client/stale-chunk.ts reloads the page, as for Vite's own imports.
    const event = Object.assign(new Event('vite:preloadError', { cancelable: true }), { payload: error });
    window.dispatchEvent(event);
    if (event.defaultPrevented) return new Promise<never>(() => {});
    throw error;
  });
}

/**
 * The route's loader as React Router sees it: the data strategy answers it (./navigation.ts),
 * calling the page's clientLoader where it has one. One that runs at hydration is marked so, and
 * React Router renders the route's HydrateFallback (which the server sent) until it has run.
 */
function loaderOf(route: RouteDescriptor) {
  if (route.clientLoader === 'hydrate') return Object.assign(() => fromServer(), { hydrate: true as const });
  return route.data || route.clientLoader ? fromServer : undefined;
}

function toRouteObject(route: RouteDescriptor): RouteObject {
  // A resource route: the data strategy posts to its action, and loads any GET as a document.
  if (route.resource) return { id: route.id, path: route.path, loader: fromServer, action: fromServer, handle: { resource: true } };
  const preload = () => {
    preloadStyles(route.styles);
    return loadModule(route);
  };
  const client = { loader: route.clientLoader !== undefined, action: route.clientAction === true };
  const handle: RouteHandle = { meta: route.meta, resource: false, boundary: route.boundary, preload, client };
  const object = {
    id: route.id,
    path: route.path,
    lazy: lazyPage(
      () => loadModule(route),
      handle,
      () => applyStyles(route.styles),
    ),
    loader: loaderOf(route),
    action: (route.data || route.clientAction) && fromServer,
    // Client middleware runs around the data strategy (./navigation.ts), parents first.
    middleware: route.clientMiddleware && [
      async (args: Parameters<MiddlewareFunction>[0], next: Parameters<MiddlewareFunction>[1]) =>
        runChain((handle.page ?? (await loadModule(route))).clientMiddleware ?? [], args, next),
    ],
    ErrorBoundary: route.boundary && RouteErrorBoundary,
    handle,
  };
  return route.index ? { ...object, index: true } : object;
}

/** Adds routes under their parent (React Router's `patchRoutes`, or the table before the router exists). */
export type PatchRoutes = (parentId: string, children: RouteObject[]) => void;

export interface RouteTable {
  /** The document's routes under the host's root: what the router starts from. */
  readonly routes: RouteObject[];
  /** The routes with server data, known so far (the data strategy asks the server for these). */
  readonly dataRouteIds: ReadonlySet<string>;
  /** Adds the routes not known yet, parents first; whether the description had any (a page answers its path). */
  learn(found: readonly RouteDescriptor[], patch: PatchRoutes): boolean;
}

export function createRouteTable(initial: readonly RouteDescriptor[]): RouteTable {
  const known = new Set<string>();
  const dataRouteIds = new Set<string>();
  const root = hostRoute([]);
  const byId = new Map<string, RouteObject>([[root.id!, root]]);

  function learn(found: readonly RouteDescriptor[], patch: PatchRoutes): boolean {
    for (const route of found) {
      if (known.has(route.id)) continue;
      known.add(route.id);
      if (route.data) dataRouteIds.add(route.id);
      patch(route.parentId, [toRouteObject(route)]);
    }
    return found.length > 0;
  }

  // The document's own routes, parents first, before the router exists.
  learn(initial, (parentId, [child]) => {
    const parent = byId.get(parentId)!;
    (parent.children ??= []).push(child!);
    byId.set(child!.id!, child!);
  });

  return { routes: [root], dataRouteIds, learn };
}
