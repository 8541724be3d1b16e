// The route table as React Router's route objects, under the host's root route. Both sides
// share this; only the loader and action differ: the server calls the `*.server.ts` module, the
// browser asks the server (./navigation.ts). Resource routes (no page) exist only on the server:
// the browser's router sends a link to one to the server as a document load.
import type { LoaderFunction, RouteObject } from 'react-router';
import { HostRoot, type RouteHandle } from './HostRoot.tsx';
import { RootErrorPage, RouteErrorBoundary } from './RouteErrorBoundary.tsx';
import type { RouteEntry } from './route-entry.ts';

/** The host's root route: head, announcer and scroll restoration; its boundary is the full error page. */
export const HOST_ROUTE_ID = '__host';

export type LoaderFor = (entry: RouteEntry & { server: NonNullable<RouteEntry['server']> }) => LoaderFunction;

/** Each side's calls: the server's run the module, the browser's ask the server. */
export interface RouteCalls {
  loader: LoaderFor;
  action: LoaderFor;
  /** Whether resource routes are kept: the server's table has them, the browser's not. */
  resources: boolean;
}

function convert(entries: readonly RouteEntry[], calls: RouteCalls): RouteObject[] {
  return entries
    .filter((entry) => calls.resources || entry.page !== undefined)
    .map((entry) => {
      const { page } = entry;
      const server = entry.server && { ...entry, server: entry.server };
      const handle: RouteHandle = {
        meta: entry.meta,
        diagnostics: entry.diagnostics,
        src: page?.src,
        server: entry.server,
        resource: page === undefined,
      };
      const route = {
        id: entry.id,
        path: entry.path,
        lazy: page && (async () => ({ Component: (await page()).default })),
        loader: server && calls.loader(server),
        action: server && calls.action(server),
        ErrorBoundary: entry.boundary ? RouteErrorBoundary : undefined,
        handle,
      };
      return entry.index ? { ...route, index: true } : { ...route, children: entry.children && convert(entry.children, calls) };
    });
}

export function toRouterRoutes(entries: readonly RouteEntry[], calls: RouteCalls): RouteObject[] {
  return [{ id: HOST_ROUTE_ID, Component: HostRoot, ErrorBoundary: RootErrorPage, children: convert(entries, calls) }];
}

/** The ids of the routes that have a server loader. */
export function loaderRouteIds(entries: readonly RouteEntry[], into = new Set<string>()): Set<string> {
  for (const entry of entries) {
    if (entry.server && entry.page) into.add(entry.id);
    if (entry.children) loaderRouteIds(entry.children, into);
  }
  return into;
}
