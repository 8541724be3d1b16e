// The route table as React Router's route objects, under the host's root route: the server's
// whole table, whose loaders and actions call the `*.server.ts` modules. The browser's router
// is built from the routes the server describes to it (./route-discovery.ts), with the same
// root route and lazy pages.
import type { LoaderFunction, MiddlewareFunction, RouteObject } from 'react-router';
import { HostRoot } from './HostRoot.tsx';
import type { RouteHandle } from './route-handle.ts';
import { RootErrorPage, RouteErrorBoundary } from './RouteErrorBoundary.tsx';
import type { RouteEntry } from './route-entry.ts';
import type { PageModule } from './route-module.ts';

/** The host's root route: head, announcer and scroll restoration; its boundary is the full error page. */
export const HOST_ROUTE_ID = '__host';

type ServerEntry = RouteEntry & { server: NonNullable<RouteEntry['server']> };
export type LoaderFor = (entry: ServerEntry) => LoaderFunction;
export type MiddlewareFor = (entry: ServerEntry) => MiddlewareFunction;

export interface RouteCalls {
  loader: LoaderFor;
  action: LoaderFor;
  /** The server's: runs the module's `middleware` (../server/server-middleware.ts). */
  middleware?: MiddlewareFor;
}

/** The framework-mode exports React Router's route objects take as they are. */
type LazyPart = Pick<RouteObject, 'Component' | 'ErrorBoundary' | 'HydrateFallback' | 'shouldRevalidate'>;

/**
 * A route's lazy part: its page module. What React Router's route objects take goes on the
 * route; the rest (`meta`, `links`, the app's `handle`, the client data functions) into its
 * handle, which React Router would not take from a lazy function since the route has one. A
 * route the table gives a boundary keeps it: RouteErrorBoundary shows the page's own
 * ErrorBoundary when it exports one. `styles`: the page's stylesheets, applied before it
 * renders (the browser's; the server's document links them itself).
 */
export function lazyPage(load: () => Promise<PageModule>, handle: RouteHandle, styles?: () => Promise<unknown>) {
  return async (): Promise<LazyPart> => {
    const [page] = await Promise.all([load(), styles?.()]);
    // The app's handle beside the host's own keys, which it cannot replace (route-handle.ts).
    for (const [key, value] of Object.entries(page.handle ?? {})) if (!(key in handle)) handle[key] = value;
    handle.page = page;
    const part: LazyPart = { Component: page.default };
    if (page.ErrorBoundary !== undefined && handle.boundary !== true) part.ErrorBoundary = page.ErrorBoundary;
    if (page.HydrateFallback !== undefined) part.HydrateFallback = page.HydrateFallback;
    if (page.shouldRevalidate !== undefined) part.shouldRevalidate = page.shouldRevalidate;
    return part;
  };
}

/**
 * The server renders a route whose `clientLoader` runs at hydration (`clientLoader.hydrate`) as
 * its HydrateFallback, as framework mode does: the browser shows the same until that loader has run.
 */
function fallbackFirst(lazy: () => Promise<LazyPart>, handle: RouteHandle) {
  return async (): Promise<LazyPart> => {
    const part = await lazy();
    const page = handle.page;
    return page?.clientLoader?.hydrate === true && page.HydrateFallback !== undefined ? { ...part, Component: page.HydrateFallback } : part;
  };
}

/**
 * A module asked for once per table: `import()` of a module already loaded still goes through
 * the ESM loader's resolution, 14 µs a request on a stored page's path, asked by the cache policy,
 * the methods, the middleware and the loaders. A load that fails is asked again next time.
 * (Development makes a new table when a module changes: frontend.ts reloads the renderer.)
 */
function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}

/** The server's routes (the browser builds its own from descriptions, ../browser/route-discovery.ts). */
function convert(entries: readonly RouteEntry[], calls: RouteCalls): RouteObject[] {
  return entries.map((entry) => {
    const { page } = entry;
    const serverModule = entry.server && loadOnce(entry.server);
    const server = serverModule && { ...entry, server: serverModule };
    const handle: RouteHandle = {
      meta: entry.meta,
      diagnostics: entry.diagnostics,
      src: page?.src,
      server: serverModule,
      resource: page === undefined,
      boundary: entry.boundary,
    };
    const route = {
      id: entry.id,
      path: entry.path,
      lazy: page && fallbackFirst(lazyPage(page, handle), handle),
      loader: server && calls.loader(server),
      action: server && calls.action(server),
      middleware: server && calls.middleware && [calls.middleware(server)],
      ErrorBoundary: entry.boundary ? RouteErrorBoundary : undefined,
      handle,
    };
    return entry.index ? { ...route, index: true } : { ...route, children: entry.children && convert(entry.children, calls) };
  });
}

/** The host's root route over these children. */
export function hostRoute(children: RouteObject[]): RouteObject {
  return { id: HOST_ROUTE_ID, Component: HostRoot, ErrorBoundary: RootErrorPage, children };
}

export function toRouterRoutes(entries: readonly RouteEntry[], calls: RouteCalls): RouteObject[] {
  return [hostRoute(convert(entries, calls))];
}
