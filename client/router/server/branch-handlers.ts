// React Router's static handler per matched branch. Its query() walks every branch of the table
// it was made with (measured: 0.18 ms a request with the demo's table, 7 ms with 1,000 more
// routes; issue 22), so the host matches once against the whole table, compiled
// (./route-matcher.ts), and hands query() a handler made of just the routes that matched: the
// root, the layouts and the page. The most recently used ones are kept, so memory is bounded
// whatever the table's size.
import { createStaticHandler, type RouteMatch, type RouteObject, type StaticHandler } from 'react-router';
import { createRouteMatcher } from './route-matcher.ts';
import { setNewest } from '../../../shared/bounded-map.ts';

/** The matched routes as a table of their own: each the only child of the one above. */
function chainOf(routes: readonly RouteObject[]): RouteObject[] {
  const chain = routes.reduceRight<RouteObject[]>((children, route) => [route.index ? { ...route } : { ...route, children }], []);
  return chain;
}

/**
 * Handlers kept: the branches a site's traffic mostly hits. A handler of a branch costs about 4 KB
 * and 150 µs to make (measured with 1,000 synthetic routes), so a miss is cheap and the cache
 * need not hold a branch per route.
 */
const MAX_HANDLERS = 256;

/** Every route of the host's tables has an id (../both/react-router-routes.ts gives each its entry's). */
type IdentifiedRoute = RouteObject & { id: string };

export function createBranchHandlers(routes: RouteObject[]) {
  const match = createRouteMatcher(routes as IdentifiedRoute[]);
  const handlers = new Map<string, StaticHandler>();
  function handlerFor(matches: readonly RouteMatch[]): StaticHandler {
    const key = matches.map((m) => m.route.id).join('\n');
    const handler = handlers.get(key) ?? createStaticHandler(chainOf(matches.map((m) => m.route)));
    // Set anew when used: the oldest is then the least recently used.
    setNewest(handlers, key, handler, MAX_HANDLERS);
    return handler;
  }
  return { match, handlerFor };
}
