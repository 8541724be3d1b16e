// A route's two modules, with React Router framework mode's exports under its names and
// semantics (its docs, "Route Module"). Framework mode strips the server's exports from one file
// at build time; here they live in the route's `*.server.ts` module, which the browser build never
// contains (vite.config.ts): moving a framework-mode route over is splitting its file in two.
import type { ComponentType } from 'react';
import type {
  ClientActionFunction,
  ClientLoaderFunction,
  HeadersFunction,
  LinkDescriptor,
  Location,
  MetaDescriptor,
  MiddlewareFunction,
  Params,
  RouterContextProvider,
  ShouldRevalidateFunction,
} from 'react-router';
import type { BodyLimits, CachePolicy, PrerenderExport, RequestContext } from '../../../shared/page-seam.ts';

/** The segments of a route path: `/notes/:noteId/*` → `notes` | `:noteId` | `*`. */
type Segments<Path extends string> = Path extends `${infer Head}/${infer Rest}` ? Head | Segments<Rest> : Path;
type RequiredName<S> = S extends `:${string}?` ? never : S extends `:${infer Name}` ? Name : never;
type OptionalName<S> = S extends `:${infer Name}?` ? Name : never;
type Flat<T> = { [K in keyof T]: T[K] } & {};

/**
 * The params a full route path gives, as React Router fills them: `/notes/:noteId` gives
 * `{ noteId: string }`, `:topic?` an optional string, `*` the rest of the path.
 */
export type ParamsOf<Path extends string> = string extends Path
  ? Params
  : Flat<
      { readonly [K in RequiredName<Segments<Path>>]: string } & {
        readonly [K in OptionalName<Segments<Path>>]?: string;
      } & ('*' extends Segments<Path> ? { readonly '*': string } : unknown)
    >;

/**
 * What middleware, loaders and actions get as `context`: React Router's context (its
 * `get(key)`/`set(key, value)`, for values middleware hands on) that also carries the host's
 * values for the request: `session`, `log` and `id`, and `limit()` (shared/page-seam.ts).
 */
export type HostContext = RouterContextProvider & RequestContext;

export interface LoaderArgs<Path extends string = string> {
  /** Typed from the route's full path when given: `LoaderArgs<'/notes/:noteId'>`. */
  params: ParamsOf<Path>;
  /** The incoming request: URL and headers (cookies included); an action's also has the body. */
  request: Request;
  /** Fires when the client disconnects or the stream timeout passes: stop the work. */
  signal: AbortSignal;
  context: HostContext;
}

/**
 * An action's arguments: the request's body was read, capped and checked by the host before the
 * action runs, and is handed on as sent (server/writes/request-body.ts): `await request.formData()`,
 * `await request.json()` or `await request.text()`.
 */
export type ActionArgs<Path extends string = string> = LoaderArgs<Path>;

type MiddlewareParams = Parameters<MiddlewareFunction<Response>>;

/**
 * Server middleware (React Router's MiddlewareFunction): runs before every loader and action below
 * its route, with the host's context; call `next()` for the Response of what follows, or throw a
 * redirect to end the request there.
 */
export type Middleware = (
  args: Omit<MiddlewareParams[0], 'context'> & { context: HostContext },
  next: MiddlewareParams[1],
) => ReturnType<MiddlewareFunction<Response>>;

/**
 * A `*.server.ts` file: runs only on the server; the browser build never contains it. `loader`
 * answers GET and HEAD; `action` answers POST, PUT, PATCH and DELETE. Either may return
 * `data(value, { status, headers })` or `redirect(url, { headers })` from react-router.
 */
export interface ServerModule {
  /** Typed by the module (`LoaderArgs<'/notes/:noteId'>`): any loader's arguments fit here. */
  loader?(args: never): unknown;
  action?(args: never): unknown;
  /** Runs, parents first, before any loader or action of this route and the routes below it. */
  middleware?: readonly Middleware[];
  /** The response's headers from this route's and its parent's (React Router's merge, client/router/server/route-headers.ts). */
  headers?: HeadersFunction | HeadersInit;
  /**
   * The route's own limits for its action's body, over the host's defaults (BODY_MAX_* in
   * docs/configuration.md) and within its ceiling: `export const bodyLimits = { maxFileBytes: 5_242_880, maxBytes: 6_291_456 }`.
   */
  bodyLimits?: Partial<BodyLimits>;
  /**
   * How long the route's page (and its navigation data) may be reused: `export const cache = {
   * revalidate: 10, tags: ['about'] }` keeps it fresh 10 s, then serves it stale while it is
   * rendered anew. The host still decides: a page that read the session, set a cookie, failed or
   * answered other than 2xx is never stored (docs/caching.md).
   */
  cache?: CachePolicy;
  /**
   * Pages of this route rendered by `npm run build` and served as files (docs/caching.md,
   * "Prerendered pages"): `true` for its own path (one without parameters), a list of paths, or
   * a function that lists them. A page that fails, is not a 200, or reads the session, a cookie
   * or any request header fails the build.
   */
  prerender?: PrerenderExport;
}

/**
 * What a page's `meta` export gets: React Router's MetaArgs, with its route's data as the page
 * receives it (`MetaArgs<LoaderData<typeof loader>>`). It is not called for a failed page, whose
 * meta is the host's (noindex).
 */
export interface MetaArgs<Data = unknown> {
  data: Data;
  params: Params;
  location: Location;
  error: unknown;
  matches: readonly { id: string; data: unknown; params: Params; handle: unknown }[];
}

/**
 * A page or layout file: its component is the default export; it becomes its own chunk. The
 * rest are React Router framework mode's route exports, which the browser's router and the
 * server's render read from it.
 */
export interface PageModule {
  default: ComponentType;
  /** This route's failures (and those of routes below it without one) show here, inside the layouts above. */
  ErrorBoundary?: ComponentType;
  /** Rendered by the server and until a `clientLoader` with `hydrate = true` has run. */
  HydrateFallback?: ComponentType;
  /** The deepest route's meta is the page's: `[{ title }, { name: 'description', content }]`. */
  meta?: (args: MetaArgs<never>) => readonly MetaDescriptor[] | undefined;
  /** Every matched route's links go into the head; a stylesheet loads before its page shows. */
  links?: () => readonly LinkDescriptor[];
  /** Anything the app's components read through useMatches(); the host's own keys (client/router/both/route-handle.ts) keep their values. */
  handle?: Record<string, unknown>;
  shouldRevalidate?: ShouldRevalidateFunction;
  /** Runs in the browser; `serverLoader()` asks the server for the route's loader data. */
  clientLoader?: ClientLoaderFunction;
  clientAction?: ClientActionFunction;
  /** Runs in the browser before the client loaders and actions below this route. */
  clientMiddleware?: readonly MiddlewareFunction<unknown>[];
}
