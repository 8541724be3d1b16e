// The renderer's side of the seam (shared/page-seam.ts): matches the route table once, runs
// its loaders for the request and hands back React's stream, a redirect or the data of a
// navigation. It knows nothing of Express; server/pages/pages.ts does (docs/architecture.md).
import { StrictMode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { createStaticRouter, StaticRouterProvider, type StaticHandler, type StaticHandlerContext } from 'react-router';
import { renderErrorPage, scriptNonce, styleNonce } from './router/server/render-error-page.tsx';
import {
  ACTION_METHODS,
  type MatchedRoute,
  type OnError,
  type PageRequest,
  type PageResponse,
  type Recorded,
  type Renderer,
  type StreamOptions,
} from '../shared/page-seam.ts';
import { RUNTIME_GLOBAL, serializeForScript, type RuntimeConfig } from '../shared/runtime.ts';
import { App } from './App.tsx';
import { streamDocument } from './document-stream.ts';
import { dataBody } from './router/server/route-data-writer.ts';
import type { PendingValue } from './router/both/deferred.ts';
import { DeferredScripts, splitDeferred } from './router/server/deferred-server.tsx';
import { handleOf, type RouteHandle } from './router/both/route-handle.ts';
import { isNotFound, loaderFailure, routeFailure, worstStatus, type RouteFailure } from './router/both/route-failure.ts';
import type { RouteEntry } from './router/both/route-entry.ts';
import { HOST_ROUTE_ID, toRouterRoutes } from './router/both/react-router-routes.ts';
import { createBranchHandlers } from './router/server/branch-handlers.ts';
import { withHostRoutes } from './router/server/host-routes.ts';
import { describeBranch, loadPages } from './router/server/route-descriptions.ts';
import { listRoutes as routeList } from './router/server/route-list.ts';
import { bodyLimitsOf, cachePolicyOf, methodsOf, targetOf } from './router/server/route-methods.ts';
import { asTransported } from './router/server/transport.ts';
import { routeHeaders } from './router/server/route-headers.ts';
import { queryRouteThroughMiddleware, queryThroughMiddleware, serverModulesOf } from './router/server/server-middleware.ts';
import {
  answerOf,
  asResponse,
  callContext,
  fetchRequest,
  redirectOf,
  routerContext,
  serverAction,
  serverLoader,
  serverMiddlewareFor,
  untilAborted,
} from './router/server/server-calls.ts';
import { routes as appRoutes } from './routes.tsx';
import { canonicalPath as spellingOf } from '../shared/canonical-path.ts';

/** A renderer for a route table (the app's own, or a test's), with the host's routes added. */
export function createRenderer(entries: RouteEntry[]): Renderer {
  const routes = toRouterRoutes(withHostRoutes(entries), { loader: serverLoader, action: serverAction, middleware: serverMiddlewareFor });
  // Matched once against the whole table; each request's handler knows only the routes it matched.
  const { match: matchesOf, handlerFor } = createBranchHandlers(routes);
  type Matches = NonNullable<ReturnType<typeof matchesOf>>;

  /** The routes a URL matches, or none when they are diagnostic and the request has no token. */
  function routesFor(url: URL, allowDiagnostics: () => boolean) {
    const matches = matchesOf(url.pathname);
    if (matches === null) return null;
    const diagnostics = matches.some((m) => (m.route.handle as RouteHandle | undefined)?.diagnostics);
    return diagnostics && !allowDiagnostics() ? null : matches;
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
    handler: StaticHandler,
    request: PageRequest,
    staticContext: StaticHandlerContext,
    serialized: { data: Record<string, unknown>; pending: PendingValue[] },
    options: StreamOptions,
  ) {
    const { pending } = serialized;
    const { preloadsFor, stylesFor, styleText, ...page } = request.page;
    // The matched routes' chunks load with the entry, not after it; their stylesheets are in
    // the document, after the entry's, so the first paint (and a page without JavaScript) is styled.
    const sources = staticContext.matches.map((m) => (m.route.handle as RouteHandle | undefined)?.src).filter((src) => src !== undefined);
    const preloads = [...new Set([...page.assets.preloads, ...preloadsFor(sources)])];
    const styles = [...new Set([...page.assets.styles, ...stylesFor(sources)])];
    const config: RuntimeConfig = {
      ...page,
      assets: { ...page.assets, preloads, styles },
      router: {
        loaderData: serialized.data,
        actionData: staticContext.actionData,
        errors: staticContext.errors,
        deferred: pending.map((value) => value.id),
        routes: describeBranch(staticContext.matches, { preloadsFor, stylesFor }),
      },
    };
    const router = createStaticRouter(handler.dataRoutes, staticContext);
    const nonce = scriptNonce(options.nonce);
    return renderToPipeableStream(
      <StrictMode>
        <App
          config={config}
          styleText={styleText}
          nonce={styleNonce(options.nonce)}
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
    const handler = handlerFor(matches);
    const calls = callContext(request);
    // A mutation runs the target route's action first, then every loader (revalidation).
    const fromMiddleware = new Headers();
    const modules = await serverModulesOf(matches);
    const options = { requestContext: routerContext(calls) };
    const query = queryThroughMiddleware(handler, fetchRequest(request), options, modules, fromMiddleware);
    const result = await untilAborted(query, request.renderSignal);
    if (result instanceof Response) return answerOf(result, calls.headers);
    const headers = routeHeaders(matches, modules, result, calls.headers, fromMiddleware);
    const fail = loaderFailure(onError);
    // React Router sends a failure to the nearest route that declares a boundary, else to the
    // root: the host's own pages answer those (its 404 page for a notFound()).
    const { [HOST_ROUTE_ID]: rootError, ...routeErrors } = result.errors ?? {};
    if (rootError !== undefined) {
      recordErrors(fail, routeErrors);
      return isNotFound(rootError) ? { type: 'not-found', headers } : { type: 'failed', error: rootError, headers };
    }
    const errors = recordErrors(fail, result.errors);
    const serialized = splitDeferred(result.loaderData, fail);
    // The render reads what the browser will: the values as JSON carries them (./router/server/transport.ts).
    const staticContext: StaticHandlerContext = {
      ...result,
      loaderData: asTransported(result.loaderData),
      actionData: asTransported(result.actionData),
      errors,
    };
    const first = {
      status: worstStatus(errors, result.statusCode),
      start: (options: StreamOptions) => renderDocument(handler, request, staticContext, serialized, options),
    };
    // A render failure cannot be placed exactly; like React Router's framework mode, the leaf's nearest boundary shows it.
    const boundary = [...matches].reverse().find((m) => m.route.ErrorBoundary !== undefined && m.route.id !== HOST_ROUTE_ID);
    const retry =
      boundary &&
      ((failure: Recorded) => ({
        status: failure.status,
        start: (options: StreamOptions) => {
          const failed = {
            ...staticContext,
            statusCode: failure.status,
            errors: { [boundary.route.id]: routeFailure(failure.status, failure.digest, failure.detail) },
          };
          return renderDocument(handler, request, failed, { data: serialized.data, pending: [] }, options);
        },
      }));
    return { ...(await streamDocument(request, onError, first, retry)), headers };
  }

  async function data(matches: Matches, request: PageRequest, routeIds: readonly string[], onError: OnError) {
    const mutation = ACTION_METHODS.includes(request.method);
    // A mutation names the one route whose action it runs: the one a form on this URL posts to.
    const known = mutation ? [targetOf(matches, request.url).route.id] : matches.map((m) => m.route.id);
    const unmatched = routeIds.filter((id) => !known.includes(id));
    if (unmatched.length > 0) return { type: 'unmatched' as const, ids: unmatched };
    const wanted = new Set(routeIds);
    const calls = callContext(request);
    const options = {
      requestContext: routerContext(calls),
      filterMatchesToLoad: (m: { route: { id: string } }) => wanted.has(m.route.id),
      // The browser's router bubbles each failure to its boundary itself, and asks for the
      // loaders it revalidates after an action in a request of its own.
      skipLoaderErrorBubbling: true,
      skipRevalidation: mutation,
    };
    const fromMiddleware = new Headers();
    const modules = await serverModulesOf(matches);
    const query = queryThroughMiddleware(handlerFor(matches), fetchRequest(request), options, modules, fromMiddleware);
    const result = await untilAborted(query, request.renderSignal);
    if (result instanceof Response) return answerOf(result, calls.headers);
    const headers = routeHeaders(matches, modules, result, calls.headers, fromMiddleware);
    const fail = loaderFailure(onError);
    const errors = recordErrors(fail, result.errors);
    const answered = mutation ? (result.actionData ?? {}) : result.loaderData;
    const loaded = Object.fromEntries(Object.entries(answered).filter(([id]) => wanted.has(id)));
    const { data: head, pending } = splitDeferred(loaded, fail);
    const body = dataBody({ data: head, errors }, pending, request.signal, (id, error) => ({ id, failure: fail(error) }));
    return { type: 'data' as const, status: worstStatus(errors, result.statusCode), body, headers };
  }

  async function resource(matches: Matches, request: PageRequest, onError: OnError): Promise<PageResponse> {
    const calls = callContext(request);
    const { headers } = calls;
    const options = { routeId: matches.at(-1)!.route.id, requestContext: routerContext(calls) };
    const query = queryRouteThroughMiddleware(handlerFor(matches), fetchRequest(request), options, await serverModulesOf(matches));
    const outcome = await untilAborted(
      query.then(
        (value: unknown) => ({ value }),
        (thrown: unknown) => ({ thrown }),
      ),
      request.renderSignal,
    );
    // A thrown Response is an answer too (React Router's rule); anything else thrown is a failure.
    if ('thrown' in outcome && !(outcome.thrown instanceof Response)) {
      onError(outcome.thrown, 'loader');
      return { type: 'failed', error: outcome.thrown, headers };
    }
    const response = asResponse('thrown' in outcome ? outcome.thrown : outcome.value);
    if (response.status >= 300 && response.status < 400) return redirectOf(response, headers);
    // The response carries its own headers (a data() value's too: asResponse).
    return { type: 'resource', response, headers: new Headers() };
  }

  function match(url: URL, allowDiagnostics: () => boolean): MatchedRoute | undefined {
    const matches = routesFor(url, allowDiagnostics);
    if (matches === null) return undefined;
    const leaf = handleOf(matches.at(-1)!);
    return {
      routeId: matches.at(-1)!.route.id,
      isResource: leaf.resource,
      methods: () => methodsOf(handleOf(targetOf(matches, url))),
      bodyLimits: () => bodyLimitsOf(handleOf(targetOf(matches, url))),
      cachePolicy: () => cachePolicyOf(leaf),
      document: (request, onError) => document(matches, request, onError),
      data: (request, routeIds, onError) => data(matches, request, routeIds, onError),
      resource: (request, onError) => resource(matches, request, onError),
      describe: async (modules) => {
        await loadPages(matches);
        return describeBranch(matches, modules, leaf.resource && (await leaf.server?.())?.action !== undefined);
      },
    };
  }

  return { match, canonicalPath: (path) => spellingOf(path, matchesOf), renderErrorPage, listRoutes: () => routeList(routes) };
}

export const { match, canonicalPath, listRoutes } = createRenderer(appRoutes);
export { renderErrorPage };
