// The route table as React Router's route objects, under the host's root route. Both sides
// share this; only the loader differs: the server calls the `*.server.ts` module, the browser
// asks the server for the data (./navigation.ts).
import type { LoaderFunction, RouteObject } from 'react-router';
import { HostRoot, type RouteHandle } from './HostRoot.tsx';
import { RootErrorPage, RouteErrorBoundary } from './RouteErrorBoundary.tsx';
import type { RouteEntry } from './route-entry.ts';

/** The host's root route: head, announcer and scroll restoration; its boundary is the full error page. */
export const HOST_ROUTE_ID = '__host';

export type LoaderFor = (entry: RouteEntry & { server: NonNullable<RouteEntry['server']> }) => LoaderFunction;

function convert(entries: readonly RouteEntry[], loaderFor: LoaderFor): RouteObject[] {
  return entries.map((entry) => {
    const handle: RouteHandle = { meta: entry.meta, diagnostics: entry.diagnostics, src: entry.page.src };
    const route = {
      id: entry.id,
      path: entry.path,
      lazy: async () => ({ Component: (await entry.page()).default }),
      loader: entry.server ? loaderFor({ ...entry, server: entry.server }) : undefined,
      ErrorBoundary: entry.boundary ? RouteErrorBoundary : undefined,
      handle,
    };
    return entry.index ? { ...route, index: true } : { ...route, children: entry.children && convert(entry.children, loaderFor) };
  });
}

export function toRouterRoutes(entries: readonly RouteEntry[], loaderFor: LoaderFor): RouteObject[] {
  return [{ id: HOST_ROUTE_ID, Component: HostRoot, ErrorBoundary: RootErrorPage, children: convert(entries, loaderFor) }];
}

/** The ids of the routes that have a server loader. */
export function loaderRouteIds(entries: readonly RouteEntry[], into = new Set<string>()): Set<string> {
  for (const entry of entries) {
    if (entry.server) into.add(entry.id);
    if (entry.children) loaderRouteIds(entry.children, into);
  }
  return into;
}
