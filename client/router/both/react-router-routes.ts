// The route table as React Router's route objects, under the host's root route: the server's
// whole table, whose loaders and actions call the `*.server.ts` modules. The browser's router
// is built from the routes the server describes to it (./route-discovery.ts), with the same
// root route and lazy pages.
import type { LoaderFunction, RouteObject } from 'react-router';
import { HostRoot, type RouteHandle } from './HostRoot.tsx';
import { RootErrorPage, RouteErrorBoundary } from './RouteErrorBoundary.tsx';
import type { PageModule, RouteEntry } from './route-entry.ts';

/** The host's root route: head, announcer and scroll restoration; its boundary is the full error page. */
export const HOST_ROUTE_ID = '__host';

export type LoaderFor = (entry: RouteEntry & { server: NonNullable<RouteEntry['server']> }) => LoaderFunction;

export interface RouteCalls {
  loader: LoaderFor;
  action: LoaderFor;
}

/**
 * A route's lazy part: its page's component. The page's `meta` export goes into the route's
 * handle, which React Router would not take from a lazy function since the route has one.
 * `styles`: the page's stylesheets, applied before it renders (the browser's; the server's
 * document links them itself).
 */
export function lazyPage(load: () => Promise<PageModule>, handle: RouteHandle, styles?: () => Promise<unknown>) {
  return async (): Promise<Pick<RouteObject, 'Component'>> => {
    const [page] = await Promise.all([load(), styles?.()]);
    if (page.meta !== undefined) handle.meta = page.meta;
    return { Component: page.default };
  };
}

function convert(entries: readonly RouteEntry[], calls: RouteCalls): RouteObject[] {
  return entries.map((entry) => {
    const { page } = entry;
    const server = entry.server && { ...entry, server: entry.server };
    const handle: RouteHandle = {
      meta: entry.meta,
      diagnostics: entry.diagnostics,
      src: page?.src,
      server: entry.server,
      resource: page === undefined,
      boundary: entry.boundary,
    };
    const route = {
      id: entry.id,
      path: entry.path,
      lazy: page && lazyPage(page, handle),
      loader: server && calls.loader(server),
      action: server && calls.action(server),
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
