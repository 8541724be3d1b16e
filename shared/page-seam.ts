// The seam between the host (server/) and the app's renderer (client/entry-server.tsx): the
// host speaks HTTP, the renderer speaks Fetch requests and React streams.
import type { PipeableStream, RenderToPipeableStreamOptions } from 'react-dom/server';
import type { ErrorPageProps } from './ErrorPage.tsx';
import type { BrowserSentryConfig, PageAssets, TraceMeta } from './runtime.ts';

export type StreamOptions = Omit<RenderToPipeableStreamOptions, 'bootstrapModules' | 'bootstrapScriptContent'>;

/** The server renders its own failures and status pages; the client variant is the browser's. */
export type ServerErrorPageProps = Exclude<ErrorPageProps, { side: 'client' }>;

/** What the host knows of the request that the page needs. */
export interface PageRequestContext {
  /** The page's URL, on this site's origin. */
  url: URL;
  /** URL and headers of the request, as loaders see it; built when first read. */
  readonly request: Request;
  /**
   * Fires on disconnect or at the stream timeout. Kept apart from `request`: a Fetch Request
   * that follows a signal costs about 1 KB of heap held until a finalizer runs (measured on
   * Node 20), which under load grew the server's memory by hundreds of MB.
   */
  signal: AbortSignal;
  /** Diagnostic routes exist only for requests that carry the token (server/diagnostics.ts). */
  allowDiagnostics: boolean;
  /** The host's failure pipeline: status → digest → one log line → Sentry. */
  recordFailure(error: unknown): { status: number; digest: string | undefined };
  page: {
    assets: PageAssets;
    /** The chunks (and what they import) of these source modules, to preload; none in dev. */
    preloadsFor(sources: readonly string[]): readonly string[];
    requestId: string;
    /** The host name error texts show, validated by the server. */
    hostname: string;
    trace?: TraceMeta;
    sentry?: BrowserSentryConfig;
  };
}

export type PageOutcome =
  | { type: 'no-route' }
  | { type: 'redirect'; status: number; location: string }
  /** A failure no route's boundary catches: the host answers with its full error page. */
  | { type: 'failure'; error: unknown }
  | {
      type: 'render';
      status: number;
      render(options: StreamOptions): PipeableStream;
      /** Whether a matched route declares a boundary that can show a render failure. */
      canRecover: boolean;
      /** After the shell failed: the page again, with the failure in the nearest route boundary. */
      renderFailure(failure: { status: number; digest: string | undefined }, options: StreamOptions): PipeableStream;
    };

/** A navigation's data: the head line, then one line per pending value (shared/route-data.ts). */
export type DataOutcome =
  | { type: 'no-route' }
  /** Route ids the request named that are not among the routes its URL matches. */
  | { type: 'unmatched-routes'; ids: string[] }
  | { type: 'redirect'; status: number; location: string }
  | {
      type: 'data';
      status: number;
      head: unknown;
      /** The pending values, each settling to its line. */
      rest: { id: string; settled: Promise<unknown> }[];
      /** The line for a value that can no longer come (the deadline passed): its failure, recorded. */
      failed(id: string, error: unknown): unknown;
    };

/** What matching needs of a request: its URL, and whether it may see diagnostic routes. */
export type MatchContext = Pick<PageRequestContext, 'allowDiagnostics' | 'url'>;

export interface Renderer {
  /** The deepest route (that this request may see) matching its URL; runs no loader. */
  match(context: MatchContext): string | undefined;
  page(context: PageRequestContext): Promise<PageOutcome>;
  /** Loader data for a client navigation, for the routes named. */
  data(context: PageRequestContext, routeIds: readonly string[]): Promise<DataOutcome>;
  renderErrorPage(props: ServerErrorPageProps, options: StreamOptions): PipeableStream;
}
