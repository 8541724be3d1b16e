// What the server tells the browser about this page, written into the document as JSON.
import type { RouteDescriptor } from './route-discovery.ts';

export interface PageAssets {
  /** Module scripts the browser runs to hydrate (the client entry). */
  readonly scripts: readonly string[];
  /** Chunks the entry imports, preloaded so the browser fetches them in parallel. */
  readonly preloads: readonly string[];
  readonly styles: readonly string[];
  /**
   * The server wrote these stylesheets' text into the document (production, when small): the
   * first paint waits for no request. The browser finds them there by their href.
   */
  readonly stylesInline?: boolean;
}

/** What the browser's router starts from, so hydration needs no second fetch. */
export interface RouterSnapshot {
  /** Loader data by route id; pending values are markers (client/router/both/deferred.ts). */
  readonly loaderData: Readonly<Record<string, unknown>>;
  /** Failures by the id of the route whose boundary shows them (client/router/both/route-failure.ts). */
  readonly errors: Readonly<Record<string, unknown>> | null;
  /** What the action of a document POST returned (a form's messages and values), by route id. */
  readonly actionData?: Readonly<Record<string, unknown>> | null;
  /** The pending values this response streams in later, in order. */
  readonly deferred: readonly string[];
  /** The routes this URL matched; the browser learns others as it needs them (shared/route-discovery.ts). */
  readonly routes: readonly RouteDescriptor[];
}

/** The server request's trace (Sentry's sentry-trace and baggage), continued by the browser. */
export interface TraceMeta {
  readonly sentryTrace: string;
  readonly baggage: string;
}

/** The browser SDK's settings, written by the server so one build serves every environment. */
export interface BrowserSentryConfig {
  readonly dsn: string;
  readonly release: string;
  readonly environment: string;
  readonly tunnel: string;
  readonly tracesSampleRate: number | undefined;
}

export interface RuntimeConfig {
  readonly router: RouterSnapshot;
  /**
   * The host name error texts show, validated by the server; empty in a page prerendered at
   * build, where the browser shows its own `location.hostname` (docs/caching.md, "Prerendered pages").
   */
  readonly hostname: string;
  readonly assets: PageAssets;
  /** The release this page is from: route discovery asks for this one's routes (shared/route-discovery.ts). */
  readonly build: string;
  /** The page load's request id, sent back with client error reports; empty in a prerendered page, which no request made. */
  readonly requestId: string;
  readonly trace?: TraceMeta;
  /** Absent when Sentry is off: the browser then reports failures to CLIENT_ERRORS_PATH. */
  readonly sentry?: BrowserSentryConfig;
}

export const RUNTIME_GLOBAL = '__REACT_SSR_HOST__';

/** Where browsers report their failures when Sentry is not configured. */
export const CLIENT_ERRORS_PATH = '/api/client-errors';

/** JSON that is safe inside an inline <script>: nothing can close the tag or start a comment. */
export function serializeForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
