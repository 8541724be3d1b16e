// The shape of the route table (client/routes.tsx): the one place a page is declared. Both sides
// turn it into React Router's routes (./react-router-routes.ts): the server's loaders and actions
// call the `*.server.ts` modules (client/entry-server.tsx), the browser's ask the server (../browser/navigation.ts).
import type { ComponentType } from 'react';
import type { Params } from 'react-router';
import type { BodyLimits, RequestContext } from '../../../shared/page-seam.ts';
import type { RouteMeta } from '../../../shared/route-discovery.ts';
import type { Transported } from './transported.ts';

export type { BodyLimits, RequestContext };

/**
 * A page or layout file: its component is the default export; it becomes its own chunk. A
 * title made from the route's data is its `meta` export (the table's `meta` is static: the
 * browser learns the table from the server as JSON, shared/route-discovery.ts).
 */
export interface PageModule {
  default: ComponentType;
  meta?: (data: never) => RouteMeta;
}

export interface LoaderArgs {
  params: Params;
  /** The incoming request: URL and headers (cookies included); an action's also has the body. */
  request: Request;
  /** Fires when the client disconnects or the stream timeout passes: stop the work. */
  signal: AbortSignal;
  /** What the host made for this request: the session and a logger carrying the request id. */
  context: RequestContext;
}

/**
 * An action's arguments: the request's body was read, capped and checked by the host before the
 * action runs, and is handed on as sent (server/writes/request-body.ts): `await request.formData()`,
 * `await request.json()` or `await request.text()`.
 */
export type ActionArgs = LoaderArgs;

/**
 * A `*.server.ts` file: runs only on the server; the browser build never contains it. `loader`
 * answers GET and HEAD; `action` answers POST, PUT, PATCH and DELETE. Either may return
 * `data(value, { status, headers })` or `redirect(url, { headers })` from react-router.
 */
export interface ServerModule {
  loader?(args: LoaderArgs): unknown;
  action?(args: ActionArgs): unknown;
  /**
   * The route's own limits for its action's body, over the host's defaults (BODY_MAX_* in
   * docs/configuration.md) and within its ceiling: `export const bodyLimits = { maxFileBytes: 5_242_880, maxBytes: 6_291_456 }`.
   */
  bodyLimits?: Partial<BodyLimits>;
}

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
