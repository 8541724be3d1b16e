// The shape of the route table (client/routes.tsx): the one place a page is declared. Both sides
// turn it into React Router's routes (./react-router-routes.ts): the server's loaders call the
// `*.server.ts` modules (client/entry-server.tsx), the browser's ask the server (./navigation.ts).
import type { ComponentType } from 'react';
import type { Params } from 'react-router';

/** A page or layout file: its component is the default export; it becomes its own chunk. */
export interface PageModule {
  default: ComponentType;
}

export interface LoaderArgs {
  params: Params;
  /** The incoming request: URL and headers (cookies included); never the body. */
  request: Request;
  /** Fires when the client disconnects or the stream timeout passes: stop the work. */
  signal: AbortSignal;
}

/** A `*.server.ts` file: runs only on the server; the browser build never contains it. */
export interface ServerModule {
  loader(args: LoaderArgs): unknown;
}

export interface RouteMeta {
  title: string;
  description?: string;
  /** e.g. `noindex`; 404 and 500 responses are always `noindex`. */
  robots?: string;
}

export interface RouteEntry {
  /** Stable and unique: the log's `route` field (`page:<id>`) and the loader data's key. */
  id: string;
  /** React Router path pattern: `/guide/:topic?`, `files/*`; absent on a layout without a path. */
  path?: string;
  index?: boolean;
  /**
   * The page (or layout, rendering <Outlet/>), loaded lazily: one chunk per route. The build
   * tags it with its source path (`src`, vite.config.ts) so the server can preload its chunk.
   */
  page: (() => Promise<PageModule>) & { src?: string };
  /** The server-only loader's module: `() => import('./pages/x.server.ts')`. */
  server?: () => Promise<ServerModule>;
  /** Title and meta; a function receives this route's loader data. */
  meta?: RouteMeta | ((data: never) => RouteMeta);
  /** Catch this route's (and its children's) failures here, keeping the layouts above. */
  boundary?: boolean;
  /** Exists only for requests carrying the diagnostics token (server/diagnostics.ts). */
  diagnostics?: boolean;
  children?: RouteEntry[];
}

/** Typed identity: lets the table be checked where it is written. */
export function defineRoutes(routes: RouteEntry[]): RouteEntry[] {
  return routes;
}

/** A loader's data with its type, for `useLoaderData<LoaderData<typeof loader>>()`. */
export type LoaderData<T extends (...args: never[]) => unknown> = Awaited<ReturnType<T>>;
