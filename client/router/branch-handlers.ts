// React Router's static handler per matched branch. Its query() walks every branch of the table
// it was made with (measured: 0.18 ms a request with the demo's table, 7 ms with 1,000 more
// routes; issue 22), so the host matches once against the whole table, compiled
// (./route-matcher.ts), and hands query() a handler made of just the routes that matched: the
// root, the layouts and the page. One per distinct branch, so at most one per route of the table.
import { createStaticHandler, type RouteMatch, type RouteObject, type StaticHandler } from 'react-router';
import { createRouteMatcher } from './route-matcher.ts';

/** The matched routes as a table of their own: each the only child of the one above. */
function chainOf(routes: readonly RouteObject[]): RouteObject[] {
  const chain = routes.reduceRight<RouteObject[]>((children, route) => [route.index ? { ...route } : { ...route, children }], []);
  return chain;
}

/** Every route of the host's tables has an id (./react-router-routes.ts gives each its entry's). */
type IdentifiedRoute = RouteObject & { id: string };

export function createBranchHandlers(routes: RouteObject[]) {
  const match = createRouteMatcher(routes as IdentifiedRoute[]);
  const handlers = new Map<string, StaticHandler>();
  function handlerFor(matches: readonly RouteMatch[]): StaticHandler {
    const key = matches.map((m) => m.route.id).join('\n');
    let handler = handlers.get(key);
    if (handler === undefined) {
      handler = createStaticHandler(chainOf(matches.map((m) => m.route)));
      handlers.set(key, handler);
    }
    return handler;
  }
  return { match, handlerFor };
}
