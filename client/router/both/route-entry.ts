// The shape of the route table (client/routes.tsx): the one place a page is declared. Both sides
// turn it into React Router's routes (./react-router-routes.ts): the server's loaders and actions
// call the `*.server.ts` modules (client/entry-server.tsx), the browser's ask the server (../browser/navigation.ts).
import type { BodyLimits, RequestContext } from '../../../shared/page-seam.ts';
import type { RouteMeta } from '../../../shared/route-discovery.ts';
import type { PageModule, ServerModule } from './route-module.ts';
import type { Transported } from './transported.ts';

export type { BodyLimits, RequestContext };
export type { ActionArgs, HostContext, LoaderArgs, MetaArgs, Middleware, PageModule, ParamsOf, ServerModule } from './route-module.ts';

export type { RouteMeta };

export interface RouteEntry {
  /** Stable and unique: the log's `route` field (`page:<id>`) and the loader data's key. */
  id: string;
  /** React Router path pattern: `/guide/:topic?`, `files/*`; absent on a layout without a path. */
  path?: string;
  index?: boolean;
  /**
   * The page (or layout, rendering <Outlet/>), loaded lazily: one chunk per route. The build
   * tags it with its source path (`src`, vite.config.ts) so the server can preload its chunk.
   * A route without a page is a resource route: its loader's or action's Response is the answer.
   */
  page?: (() => Promise<PageModule>) & { src?: string };
  /** The server-only module of its loader and action: `() => import('../pages/x.server.ts')`. */
  server?: () => Promise<ServerModule>;
  /** Title and meta; one made from the loader's data is the page module's `meta` export. */
  meta?: RouteMeta;
  /** Catch this route's (and its children's) failures here, keeping the layouts above. */
  boundary?: boolean;
  /** Exists only for requests carrying the diagnostics token (server/pages/diagnostics.ts). */
  diagnostics?: boolean;
  children?: RouteEntry[];
}

/** Typed identity: lets the table be checked where it is written. */
export function defineRoutes(routes: RouteEntry[]): RouteEntry[] {
  return routes;
}

/**
 * A loader's data as the page receives it, for `useLoaderData<LoaderData<typeof loader>>()`:
 * what JSON carries (a `Date` arrives as a string; ./transported.ts). React Router's own
 * `useLoaderData<typeof loader>()` assumes its turbo-stream transport, which the host does not use.
 */
export type LoaderData<T extends (...args: never[]) => unknown> = Transported<Awaited<ReturnType<T>>>;
/** An action's data as the page receives it, for `useActionData<ActionData<typeof action>>()`. */
export type ActionData<T extends (...args: never[]) => unknown> = Transported<Awaited<ReturnType<T>>>;
