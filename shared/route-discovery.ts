// How the browser learns the route table a piece at a time (docs/pages.md, "Route discovery"):
// a document carries the routes its URL matched; before a navigation to a path it has no route
// for, the browser asks GET DISCOVERY_PATH + that path and gets the routes a request for it would
// match: none for a 404, a resource route, or diagnostics without the token. So the first load
// costs the same whatever the size of the table (React Router's "lazy route discovery").

/** A page's title and meta (client/router/both/route-entry.ts re-exports it for the route table). */
export interface RouteMeta {
  title: string;
  description?: string;
  /** e.g. `noindex`; 404 and 500 responses are always `noindex`. */
  robots?: string;
}

export const DISCOVERY_PATH = '/_routes';
/**
 * The release the asking page came from. An answer names the built chunks of one release, so
 * another release's answer is refused (409) and the browser loads the document instead; with the
 * release in the URL, an answer can be cached for as long as the release exists.
 */
export const BUILD_PARAM = 'build';

/** One route of a matched branch, as the browser's router needs it; parents come first. */
export interface RouteDescriptor {
  readonly id: string;
  /** The route it is a child of: the host's root route for a top-level one. */
  readonly parentId: string;
  readonly path?: string;
  readonly index?: true;
  /** It has a `*.server.ts` module: the browser asks the server for its data. */
  readonly data?: true;
  /** Its failures show in its own boundary. */
  readonly boundary?: true;
  /** A resource route with an action: forms post to it; a GET of it loads the document. No module. */
  readonly resource?: true;
  /** Its page module exports a `clientLoader` (`'hydrate'`: one that runs at hydration, `clientLoader.hydrate`). */
  readonly clientLoader?: true | 'hydrate';
  readonly clientAction?: true;
  readonly clientMiddleware?: true;
  /** The table's static meta; a page module may export a `meta` function of its data instead. */
  readonly meta?: RouteMeta;
  /** The page's built module, and the chunks it imports (preloaded with it). */
  readonly module: string;
  readonly imports: readonly string[];
  /** The stylesheets the page imports: loaded before it renders (client/router/browser/route-styles.ts). */
  readonly styles: readonly string[];
}

export interface DiscoveryAnswer {
  readonly routes: readonly RouteDescriptor[];
}

/**
 * Many paths in one request (`GET DISCOVERY_PATH?build=<release>&p=/a&p=/b`, no slash after
 * DISCOVERY_PATH): a page's links in view are discovered together, as React Router's framework
 * mode asks its `/__manifest?p=…` for them. Each path answers what its own request would.
 */
export const PATHS_PARAM = 'p';

export interface DiscoveryBatchAnswer {
  readonly branches: Readonly<Record<string, readonly RouteDescriptor[]>>;
}

/**
 * The longest batch URL the browser sends; more paths go in another request. React Router's
 * URL_LIMIT for its manifest requests (7,680 characters), well under the server's header limit.
 */
export const MAX_BATCH_URL_LENGTH = 7_680;

/** The batch URL for page paths; callers keep it under MAX_BATCH_URL_LENGTH. */
export function discoveryBatchUrl(pathnames: readonly string[], build: string): string {
  const params = new URLSearchParams([[BUILD_PARAM, build], ...pathnames.map((path) => [PATHS_PARAM, path])]);
  return `${DISCOVERY_PATH}?${params.toString()}`;
}

/** The discovery URL for a page path (no query: the routes a path matches do not depend on it). */
export function discoveryUrl(pathname: string, build: string): string {
  return `${DISCOVERY_PATH}${pathname}?${BUILD_PARAM}=${encodeURIComponent(build)}`;
}
