// The seam between the host (server/) and the app's renderer (client/entry-server.tsx), drawn
// as React Router draws its own (docs/architecture.md): the host matches once, hands the
// renderer the request and one hook that records failures, and sends back the response it
// gets. The renderer runs loaders and React, retries a failed shell in the route's boundary,
// and never touches HTTP; the host never renders.
import type { PipeableStream, RenderToPipeableStreamOptions } from 'react-dom/server';
import type { Readable } from 'node:stream';
import type { Database } from './database.ts';
import type { ErrorPageProps } from './ErrorPage.tsx';
import type { RouteDescriptor } from './route-discovery.ts';
import type { BrowserSentryConfig, PageAssets, TraceMeta } from './runtime.ts';
import type { HostSession } from './session-data.ts';

export type StreamOptions = Omit<RenderToPipeableStreamOptions, 'bootstrapModules' | 'bootstrapScriptContent'>;

/** The server renders its own failures and status pages; the client variant is the browser's. */
export type ServerErrorPageProps = Exclude<ErrorPageProps, { side: 'client' }>;

/** What loaders and actions share for one request, made by the host (server/pages/pages.ts). */
export interface RequestContext {
  /**
   * The signed-cookie session (server/writes/session.ts), typed as the app declares its data
   * (shared/session-data.ts): the host sends it back when it changed, or expires it on destroy().
   */
  session: HostSession;
  /** The process's one database (server/writes/database.ts), migrated at start-up (docs/data.md). */
  db: Database;
  /** The request id: the access line's `reqId`, the `X-Request-Id` answer header. */
  id: string;
  /** The request's logger (pino's signature): every line carries its `reqId`. */
  log: Record<'debug' | 'info' | 'warn' | 'error', LogFn>;
  /**
   * Counts one call against a per-client rate limit named `name` (server/writes/client-limits.ts):
   * resolves with undefined when it may go ahead, else the seconds until this client may again
   * (Retry-After). Counted on every replica together with REDIS_URL, else per process; it never
   * rejects for the store (Redis failing is counted per replica), only for a malformed rule.
   */
  limit(name: string, rule: { limit: number; windowMs: number }): Promise<number | undefined>;
  /**
   * Drops the stored pages (docs/caching.md) of a path or of every route tagged so, on this
   * replica and, with REDIS_URL, on every one: after a write, the next read renders anew.
   * Resolves with how many entries were dropped here (never rejects: the cache failing is no
   * failure of the action).
   */
  revalidate(target: RevalidateTarget): Promise<number>;
}

/** What a revalidation drops: the entries of one path (`/about`), or of every route tagged so. */
export type RevalidateTarget = { path: string } | { tag: string };

/**
 * How long a route's page may be reused (its `*.server.ts` module's `cache` export, checked by
 * the host: server/pages/cache-policy.ts): fresh for `revalidate` seconds, then served stale
 * while one regeneration per replica runs. `tags` name it for `context.revalidate({ tag })`.
 */
export interface CachePolicy {
  revalidate: number;
  tags?: readonly string[];
}

/**
 * A route's pages rendered at build (its `*.server.ts` module's `prerender` export, React Router
 * framework mode's `prerender` per route; checked by the host: server/pages/prerender-paths.ts):
 * `true` for its own path (one without parameters), the paths to render, or a function that
 * lists them, given the route's own static paths (`getStaticPaths()`, React Router's name).
 */
export type PrerenderExport =
  true | readonly string[] | ((args: { getStaticPaths(): string[] }) => readonly string[] | Promise<readonly string[]>);

/** A route of the table as the build's prerender step sees it (Renderer.listRoutes). */
export interface ListedRoute {
  readonly id: string;
  /** Its full path pattern, from the root: `/guide/:topic?`. */
  readonly path: string;
  readonly isResource: boolean;
  /** What its server module exports as `prerender` (a PrerenderExport), unchecked; undefined when none. */
  prerender(): Promise<unknown>;
}

export interface LogFn {
  (message: string): void;
  (fields: Record<string, unknown>, message: string): void;
}

/**
 * The limits a write's body is held to (server/config/body-limits.ts): the host's defaults, or
 * the route's own where its server module exports `bodyLimits`.
 */
export interface BodyLimits {
  /** A multipart body, files included: over it, 413 before a byte more is read. */
  maxBytes: number;
  /** A urlencoded form or a JSON document: over it, 413 the same way. */
  maxTextBytes: number;
  /** One file: a larger one reaches the action, marked too large by parseFormData (client/host.ts). */
  maxFileBytes: number;
  maxFiles: number;
  /** Text fields in one form (urlencoded pairs or multipart fields). */
  maxFields: number;
  /** One multipart text field. */
  maxFieldBytes: number;
}

/** A write's body as the client sent it, read, capped and checked by the host (server/writes/request-body.ts). */
export interface RequestBody {
  bytes: Uint8Array<ArrayBuffer>;
  /** Its Content-Type, as sent (an empty body of no type is an empty urlencoded form). */
  type: string;
  /** The limits it was held to: the action's parseFormData reads its file limit from them. */
  limits: BodyLimits;
}

/** The methods that run an action (React Router's mutation methods). */
export const ACTION_METHODS: readonly string[] = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** What the host knows of the request that the page needs. */
export interface PageRequest {
  /** The page's URL, on this site's origin. */
  url: URL;
  method: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body, for an action; null for GET and HEAD. */
  body: RequestBody | null;
  context: RequestContext;
  /**
   * Fires on disconnect or at the stream timeout: what loaders get. Kept apart from any Fetch
   * Request: one that follows a signal costs about 1 KB of heap held until a finalizer runs
   * (measured on Node 20), which under load grew the server's memory by hundreds of MB.
   */
  signal: AbortSignal;
  /**
   * Fires when the render must stop: at once on disconnect, after a grace past the timeout.
   * If the loaders have not settled by then, document() and data() reject with its reason.
   */
  renderSignal: AbortSignal;
  /** Crawlers get the complete page at once (React docs, "Crawlers and static generation"). */
  waitForAll: boolean;
  /** The CSP nonce React puts on every script and style it writes. */
  nonce: string;
  /**
   * When set, each request header a loader or middleware reads by name is added to it (`*` for
   * one that read them all): a stored page varies by what it read (server/pages/page-cache.ts).
   */
  headerReads?: Set<string>;
  page: {
    assets: PageAssets;
    /** The text of each stylesheet by its href, when `assets.stylesInline` (server only: never sent as data). */
    styleText?: Readonly<Record<string, string>>;
    /** The chunks (and what they import) of these source modules, to preload; none in dev. */
    preloadsFor: BuiltModules['preloadsFor'];
    /** The stylesheets of these source modules, linked or written into the document after the entry's. */
    stylesFor: BuiltModules['stylesFor'];
    /** The release (shared/route-discovery.ts). */
    build: string;
    requestId: string;
    /** The host name error texts show, validated by the server. */
    hostname: string;
    trace?: TraceMeta;
    sentry?: BrowserSentryConfig;
  };
}

/** A failure as recorded: its status, and for a 5xx the digest of its one log line. */
export interface Recorded {
  status: number;
  digest: string | undefined;
  /** For a render failure: what React writes into the page (the digest and its proof, shared/digest-proof.ts). */
  pageDigest?: string;
  /** Development only: the failure's message and stack, for the route's boundary to show. */
  detail?: string;
}

/**
 * The host's one hook: status → digest → one log line → Sentry, once per thrown value. A
 * loader's failure past the deadline is the deadline's; a render's also gets its `pageDigest`.
 */
export type OnError = (error: unknown, where: 'loader' | 'render') => Recorded;

/** What the renderer answers; see PageResponse. */
export type PageAnswer =
  /** Nothing on this path for the request: the host's 404. */
  | { type: 'not-found' }
  | { type: 'redirect'; status: number; location: string }
  /** No route's boundary can show it (already recorded): the host's full error page. */
  | { type: 'failed'; error: unknown }
  /** The shell is ready (or the whole page, for crawlers): pipe it. */
  | { type: 'document'; status: number; body: PipeableStream }
  /** A navigation's data (shared/route-data.ts): newline-delimited JSON. */
  | { type: 'data'; status: number; body: Readable }
  /** A resource route's own answer (JSON, text, a stream). */
  | { type: 'resource'; response: Response };

/** Every answer carries the headers its loaders and action set (`Set-Cookie` each kept). */
export type PageResponse = PageAnswer & { headers: Headers };

/** The routes a URL matched, once; what the request gets is decided by the method after. */
export interface MatchedRoute {
  /** The deepest matched route's id: the access line's and the metrics' label. */
  readonly routeId: string;
  /** A route without a page: its loader or action answers with a Response of its own. */
  readonly isResource: boolean;
  /** The methods the route answers (its module decides: an action adds ACTION_METHODS), for 405's Allow. */
  methods(): Promise<readonly string[]>;
  /** What the target route's server module exports as `bodyLimits`, unchecked (the host checks it); undefined when none. */
  bodyLimits(): Promise<unknown>;
  /** What the deepest route's server module exports as `cache` (a CachePolicy), unchecked; undefined when none. */
  cachePolicy(): Promise<unknown>;
  /** A page request; a mutation runs the action, then the loaders, then the page. */
  document(request: PageRequest, onError: OnError): Promise<PageResponse>;
  /**
   * Loader data for a client navigation, for the routes named; a mutation runs only the action
   * of the one route named. 400 (`unmatched`) for any route the URL did not match.
   */
  data(request: PageRequest, routeIds: readonly string[], onError: OnError): Promise<PageResponse | { type: 'unmatched'; ids: string[] }>;
  /** A resource route's loader (GET, HEAD) or action. */
  resource(request: PageRequest, onError: OnError): Promise<PageResponse>;
  /**
   * The matched routes as the browser's router learns them, with their chunks and stylesheets;
   * none for a resource route without an action (one with an action is described, for forms to
   * post to).
   */
  describe(modules: BuiltModules): Promise<readonly RouteDescriptor[]>;
}

/** What the host knows of the built client (server/assets/frontend.ts), by source module (`client/pages/Home.tsx`). */
export interface BuiltModules {
  /** Their built chunks, each module's own first, and the chunks they import; none in development. */
  preloadsFor(sources: readonly string[]): readonly string[];
  /** The stylesheets they import, directly or through the chunks they import. */
  stylesFor(sources: readonly string[]): readonly string[];
}

export interface Renderer {
  /**
   * The routes matching this URL that this request may see; runs nothing. `allowDiagnostics` is
   * asked only when the branch is a diagnostic one (checking the token is a hash: a 404 or an
   * ordinary page does not pay for it).
   */
  match(url: URL, allowDiagnostics: () => boolean): MatchedRoute | undefined;
  /** The one spelling of the page `path` (as sent, no query) reaches (shared/canonical-path.ts); undefined when no route takes it. */
  canonicalPath(path: string): string | undefined;
  renderErrorPage(props: ServerErrorPageProps, options: StreamOptions): PipeableStream;
  /** Every route of the app's table (no diagnostic ones), for the build's prerender step. */
  listRoutes(): readonly ListedRoute[];
}
