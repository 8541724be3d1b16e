// What the server tells the browser about this page, written into the document as JSON by the
// host (server/render/document-head.ts), whatever the app's own entry: the host's browser code
// (client/router/) and the error texts read it.

/**
 * The server request's trace, continued by the browser: as a W3C traceparent (its failure reports
 * send it back), and with Sentry as its sentry-trace and baggage (Sentry's browser SDK reads them).
 */
export interface TraceMeta {
  readonly traceparent: string;
  readonly sentryTrace?: string;
  readonly baggage?: string;
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
  /**
   * The host name error texts show, validated by the server; empty in a page prerendered at
   * build, where the browser shows its own `location.hostname` (docs/caching.md, "Prerendered pages").
   */
  readonly hostname: string;
  /** The release this page is from: a chunk of another one means a deploy happened (client/router/stale-chunk.ts). */
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
