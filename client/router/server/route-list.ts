// The route table as a list, for the build's prerender step (server/pages/prerender-paths.ts):
// each route's full path pattern and its server module's `prerender` export. Requests never
// walk the table this way; they are matched once (./route-matcher.ts).
import type { RouteObject } from 'react-router';
import type { ListedRoute } from '../../../shared/page-seam.ts';
import { handleOf } from '../both/route-handle.ts';

/** A child's pattern below its parent's: an absolute path (`/fixture/:name?`) stands as it is. */
function joinPath(parent: string, path: string | undefined): string {
  if (path === undefined || path === '') return parent;
  if (path.startsWith('/')) return path;
  return `${parent.replace(/\/$/, '')}/${path}`;
}

/** Every route under `routes` with its full pattern, parents first; diagnostic routes are the host's, never listed. */
export function listRoutes(routes: readonly RouteObject[], parent = '/'): ListedRoute[] {
  return routes.flatMap((route) => {
    const handle = handleOf({ route });
    if (handle.diagnostics === true) return [];
    const path = joinPath(parent, route.path);
    const own: ListedRoute[] =
      route.id === undefined
        ? []
        : [{ id: route.id, path, isResource: handle.resource, prerender: async () => (await handle.server?.())?.prerender }];
    return [...own, ...listRoutes(route.children ?? [], path)];
  });
}
