// A route's server `middleware` export, run by React Router's own pipeline (its static handler's
// `generateMiddlewareResponse`, the API its framework mode runs middleware through): parents
// first, before any loader or action below; a redirect or a Response thrown or returned by one
// ends the request before they run. The host answers with a stream, not a Response, so the
// pipeline's innermost Response is a marker that carries the render's context out.
import type { MiddlewareFunction, RouteMatch, StaticHandler, StaticHandlerContext } from 'react-router';
import type { Middleware, ServerModule } from '../both/route-module.ts';
import { runChain } from '../both/middleware-chain.ts';
import { handleOf } from '../both/route-handle.ts';

type QueryOptions = NonNullable<Parameters<StaticHandler['query']>[1]>;
type RouteQueryOptions = NonNullable<Parameters<StaticHandler['queryRoute']>[1]>;

/** The route object's one middleware: its server module's `middleware`, one after another. */
export function serverMiddleware(load: () => Promise<ServerModule>): MiddlewareFunction<Response> {
  return async (args, next) => runChain((await load()).middleware ?? [], args as Parameters<Middleware>[0], next);
}

/** The matched routes' server modules, in order (none for a route without one): loaded once per request, read by the middleware and headers steps. */
export function serverModulesOf(matches: readonly RouteMatch[]): Promise<(ServerModule | undefined)[]> {
  return Promise.all(matches.map((m) => handleOf(m).server?.() ?? Promise.resolve(undefined)));
}

/** Whether any matched route's server module has middleware: most branches have none and skip the pipeline. */
function hasMiddleware(modules: readonly (ServerModule | undefined)[]): boolean {
  return modules.some((module) => (module?.middleware?.length ?? 0) > 0);
}

/**
 * query(), through the branch's middleware when it has some. Resolves with the handler's context,
 * or with the Response a middleware answered (a redirect, or one of its own). `headers` gets what
 * middleware set on the Response next() gave them.
 */
export async function queryThroughMiddleware(
  handler: StaticHandler,
  request: Request,
  options: QueryOptions,
  modules: readonly (ServerModule | undefined)[],
  headers: Headers,
): Promise<StaticHandlerContext | Response> {
  if (!hasMiddleware(modules)) return handler.query(request, options);
  let rendered: StaticHandlerContext | undefined;
  const passed = new Response(null);
  const answer = await handler.query(request, {
    ...options,
    generateMiddlewareResponse: async (query) => {
      const result = await query(request);
      if (result instanceof Response) return result;
      rendered = result;
      return passed;
    },
  });
  if (answer !== passed || rendered === undefined) return answer;
  for (const [name, value] of passed.headers) headers.set(name, value);
  return rendered;
}

/** queryRoute(), through the branch's middleware when it has some. */
export function queryRouteThroughMiddleware(
  handler: StaticHandler,
  request: Request,
  options: RouteQueryOptions,
  modules: readonly (ServerModule | undefined)[],
): Promise<unknown> {
  if (!hasMiddleware(modules)) return handler.queryRoute(request, options);
  return handler.queryRoute(request, { ...options, generateMiddlewareResponse: (inner) => inner(request) });
}
