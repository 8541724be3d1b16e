// The renderer's side of the seam (shared/page-seam.ts): matches the route table once, runs
// its loaders for the request and hands back React's stream, a redirect or the data of a
// navigation. It knows nothing of Express; server/pages.ts does (docs/architecture.md).
import { StrictMode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  matchRoutes,
  StaticRouterProvider,
  type LoaderFunction,
  type StaticHandlerContext,
} from 'react-router';
import { boundedMemo } from '../shared/bounded-memo.ts';
import { Document } from '../shared/Document.tsx';
import { ErrorPage } from '../shared/ErrorPage.tsx';
import ERROR_PAGE_CSS from '../shared/error-page.css?raw';
import type {
  MatchedRoute,
  OnError,
  PageRequest,
  PageResponse,
  Renderer,
  ServerErrorPageProps,
  StreamOptions,
} from '../shared/page-seam.ts';
import { RUNTIME_GLOBAL, serializeForScript, type RuntimeConfig } from '../shared/runtime.ts';
import { App } from './App.tsx';
import { streamDocument } from './document-stream.ts';
import { dataBody } from './router/route-data-writer.ts';
import type { PendingValue } from './router/deferred.ts';
import { DeferredScripts, handleDeferred, splitDeferred } from './router/deferred-server.tsx';
import type { RouteHandle } from './router/HostRoot.tsx';
import { isNotFound, routeFailure, type RouteFailure } from './router/route-failure.ts';
import type { RouteEntry } from './router/route-entry.ts';
import { HOST_ROUTE_ID, toRouterRoutes, type LoaderFor } from './router/react-router-routes.ts';
import { routes as appRoutes } from './routes.tsx';

/** What the static handler passes every loader (`requestContext`). */
interface LoaderContext {
  signal: AbortSignal;
}

const serverLoader: LoaderFor = (entry) =>
  (async ({ params, request, context }) => {
    const { loader } = await entry.server();
    const data = await loader({ params, request, signal: (context as LoaderContext).signal });
    handleDeferred(data);
    return data;
  }) satisfies LoaderFunction;

/** A loader's thrown or returned Response: only redirects have a meaning for a page. */
function redirectOf(response: Response) {
  const location = response.headers.get('Location');
  if (response.status < 300 || response.status >= 400 || location === null) {
    throw new Error(`A loader returned a ${response.status} response that is not a redirect`);
  }
  return { type: 'redirect' as const, status: response.status, location };
}

/** The response's status: the worst of its recorded failures (React Router would say 500 for any thrown value). */
function statusOf(failures: Record<string, RouteFailure> | null, fallback: number): number {
  const statuses = Object.values(failures ?? {}).map((failure) => failure.status);
  return statuses.length > 0 ? Math.max(...statuses) : fallback;
}

/** The host records a loader's failure; the boundary (or the data response) gets what it may show. */
function failureOf(onError: OnError) {
  return (error: unknown): RouteFailure => {
    const { status, digest } = onError(error, 'loader');
    return routeFailure(status, digest);
  };
}

/**
 * The loader phase, until the host's render signal fires (shared/page-seam.ts): a loader that
 * ignores its own signal cannot hold the request, and nothing after it runs once the host has
 * answered without it.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The request as loaders see it: URL, method, headers and body; its signal goes apart (page-seam.ts). */
function fetchRequest(request: PageRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const init: RequestInit & { duplex?: 'half' } = { method: request.method, headers };
  if (request.body !== null) Object.assign(init, { body: request.body, duplex: 'half' });
  return new Request(request.url, init);
}

function styleNonce(nonce: StreamOptions['nonce']): string | undefined {
  return typeof nonce === 'string' ? nonce : nonce?.style;
}

function scriptNonce(nonce: StreamOptions['nonce']): string | undefined {
  return typeof nonce === 'string' ? nonce : nonce?.script;
}

/** Paths whose matches are remembered; cleared when full, so memory stays bounded. */
const MAX_REMEMBERED_PATHS = 1_000;

/** A renderer for a route table: the app's own, or a test's. */
export function createRenderer(entries: RouteEntry[]): Renderer {
  const routes = toRouterRoutes(entries, serverLoader);
  const handler = createStaticHandler(routes);
  // matchRoutes flattens, ranks and compiles the whole table on every call (a fifth of a 404's
  // CPU time in a profile); the table is fixed, so each path's matches are remembered.
  const matchesOf = boundedMemo((pathname: string) => matchRoutes(handler.dataRoutes, pathname), MAX_REMEMBERED_PATHS);
  type Matches = NonNullable<ReturnType<typeof matchesOf>>;

  /** The routes a URL matches, or none when they are diagnostic and the request has no token. */
  function routesFor(url: URL, allowDiagnostics: boolean) {
    const matches = matchesOf(url.pathname);
    if (matches === null) return null;
    const diagnostics = matches.some((m) => (m.route.handle as RouteHandle | undefined)?.diagnostics);
    return diagnostics && !allowDiagnostics ? null : matches;
  }

  /** Records each route failure once and keeps only what its boundary shows. */
  function recordErrors(
    fail: (error: unknown) => RouteFailure,
    errors: StaticHandlerContext['errors'],
  ): Record<string, RouteFailure> | null {
    return errors == null ? null : Object.fromEntries(Object.entries(errors).map(([routeId, error]) => [routeId, fail(error)]));
  }

  /** `serialized` is the loader data the browser gets: pending values as markers. */
  function renderDocument(
    request: PageRequest,
    staticContext: StaticHandlerContext,
    serialized: { data: Record<string, unknown>; pending: PendingValue[] },
    options: StreamOptions,
  ) {
    const { pending } = serialized;
    const { preloadsFor, ...page } = request.page;
    // The matched routes' chunks load with the entry, not after it.
    const sources = staticContext.matches.map((m) => (m.route.handle as RouteHandle | undefined)?.src).filter((src) => src !== undefined);
    const preloads = [...new Set([...page.assets.preloads, ...preloadsFor(sources)])];
    const config: RuntimeConfig = {
      ...page,
      assets: { ...page.assets, preloads },
      router: { loaderData: serialized.data, errors: staticContext.errors, deferred: pending.map((value) => value.id) },
    };
    const router = createStaticRouter(handler.dataRoutes, staticContext);
    const nonce = scriptNonce(options.nonce);
    return renderToPipeableStream(
      <StrictMode>
        <App
          config={config}
          router={<StaticRouterProvider router={router} context={staticContext} hydrate={false} nonce={nonce} />}
          after={<DeferredScripts pending={pending} nonce={nonce} />}
        />
      </StrictMode>,
      {
        ...options,
        bootstrapScriptContent: `window.${RUNTIME_GLOBAL}=${serializeForScript(config)}`,
        bootstrapModules: [...config.assets.scripts],
      },
    );
  }

  async function document(matches: Matches, request: PageRequest, onError: OnError): Promise<PageResponse> {
    const query = handler.query(fetchRequest(request), { requestContext: { signal: request.signal } satisfies LoaderContext });
    const result = await untilAborted(query, request.renderSignal);
    if (result instanceof Response) return redirectOf(result);
    const fail = failureOf(onError);
    // React Router sends a failure to the nearest route that declares a boundary, else to the
    // root: the host's own pages answer those (its 404 page for a notFound()).
    const { [HOST_ROUTE_ID]: rootError, ...routeErrors } = result.errors ?? {};
    if (rootError !== undefined) {
      recordErrors(fail, routeErrors);
      return isNotFound(rootError) ? { type: 'not-found' } : { type: 'failed', error: rootError };
    }
    const errors = recordErrors(fail, result.errors);
    const serialized = splitDeferred(result.loaderData, fail);
    const staticContext: StaticHandlerContext = { ...result, errors };
    const first = {
      status: statusOf(errors, result.statusCode),
      start: (options: StreamOptions) => renderDocument(request, staticContext, serialized, options),
    };
    // A render failure cannot be placed exactly; like React Router's framework mode, the leaf's nearest boundary shows it.
    const boundary = [...matches].reverse().find((m) => m.route.ErrorBoundary !== undefined && m.route.id !== HOST_ROUTE_ID);
    if (boundary === undefined) return streamDocument(request, onError, first);
    return streamDocument(request, onError, first, (failure) => ({
      status: failure.status,
      start: (options) => {
        const failed = {
          ...staticContext,
          statusCode: failure.status,
          errors: { [boundary.route.id]: routeFailure(failure.status, failure.digest) },
        };
        return renderDocument(request, failed, { data: serialized.data, pending: [] }, options);
      },
    }));
  }

  async function data(matches: Matches, request: PageRequest, routeIds: readonly string[], onError: OnError) {
    const unmatched = routeIds.filter((id) => !matches.some((m) => m.route.id === id));
    if (unmatched.length > 0) return { type: 'unmatched' as const, ids: unmatched };
    const wanted = new Set(routeIds);
    const query = handler.query(fetchRequest(request), {
      requestContext: { signal: request.signal } satisfies LoaderContext,
      filterMatchesToLoad: (m) => wanted.has(m.route.id),
      // The browser's router bubbles each failure to its boundary itself.
      skipLoaderErrorBubbling: true,
    });
    const result = await untilAborted(query, request.renderSignal);
    if (result instanceof Response) return redirectOf(result);
    const fail = failureOf(onError);
    const errors = recordErrors(fail, result.errors);
    const loaded = Object.fromEntries(Object.entries(result.loaderData).filter(([id]) => wanted.has(id)));
    const { data: head, pending } = splitDeferred(loaded, fail);
    const body = dataBody({ data: head, errors }, pending, request.signal, (id, error) => ({ id, failure: fail(error) }));
    return { type: 'data' as const, status: statusOf(errors, result.statusCode), body };
  }

  function match(url: URL, allowDiagnostics: boolean): MatchedRoute | undefined {
    const matches = routesFor(url, allowDiagnostics);
    if (matches === null) return undefined;
    return {
      routeId: matches.at(-1)!.route.id,
      document: (request, onError) => document(matches, request, onError),
      data: (request, routeIds, onError) => data(matches, request, routeIds, onError),
    };
  }

  /** Error pages are complete without JavaScript or assets: nothing they need can be broken. */
  function renderErrorPage(props: ServerErrorPageProps, options: StreamOptions) {
    const title = props.side === 'http' ? `${props.status}: ${props.message}` : 'Application error';
    return renderToPipeableStream(
      <Document title={title} inlineCss={ERROR_PAGE_CSS} nonce={styleNonce(options.nonce)} robots="noindex">
        <ErrorPage {...props} />
      </Document>,
      options,
    );
  }

  return { match, renderErrorPage };
}

export const { match, renderErrorPage } = createRenderer(appRoutes);
