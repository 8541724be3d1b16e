// The server's side of shared/route-discovery.ts: the routes a URL matched, described for the
// browser's router, which builds them back (./route-discovery.ts). The document carries its
// own; the discovery endpoint (server/pages/route-discovery.ts) answers for any other path.
import type { RouteMatch } from 'react-router';
import type { BuiltModules } from '../../../shared/page-seam.ts';
import type { RouteDescriptor } from '../../../shared/route-discovery.ts';
import type { RouteHandle } from '../both/route-handle.ts';
import { HOST_ROUTE_ID } from '../both/react-router-routes.ts';

/**
 * `modules`: a source module's built chunk first, then the chunks it imports, and its
 * stylesheets (server/assets/frontend.ts). `writable`: the branch ends in a resource route with
 * an action, which the browser's router posts forms to (and leaves every GET of to the server).
 */
/** What the browser's router must know of a page module before it has loaded it: its client data functions. */
function clientExports({ page }: RouteHandle): Pick<RouteDescriptor, 'clientLoader' | 'clientAction' | 'clientMiddleware'> {
  if (page === undefined) return {};
  return {
    ...(page.clientLoader !== undefined && { clientLoader: page.clientLoader.hydrate === true ? 'hydrate' : true }),
    ...(page.clientAction !== undefined && { clientAction: true }),
    ...((page.clientMiddleware?.length ?? 0) > 0 && { clientMiddleware: true }),
  };
}

/** Loads the matched routes' page modules (the handle keeps each), for a description made before any render. */
export async function loadPages(matches: readonly RouteMatch[]): Promise<void> {
  await Promise.all(matches.map((m) => (m.route.lazy as (() => Promise<unknown>) | undefined)?.() ?? Promise.resolve()));
}

export function describeBranch(matches: readonly RouteMatch[], modules: BuiltModules, writable = false): RouteDescriptor[] {
  const described: RouteDescriptor[] = [];
  let parentId = HOST_ROUTE_ID;
  for (const { route } of matches) {
    if (route.id === HOST_ROUTE_ID) continue;
    const handle = route.handle as RouteHandle;
    // A resource route is the server's to answer: the browser's router knows it only to post to it.
    if (handle.resource) {
      if (!writable) return [];
      described.push({ id: route.id!, parentId, path: route.path, resource: true, data: true, module: '', imports: [], styles: [] });
      return described;
    }
    const src = handle.src ?? '';
    // In development nothing is built: Vite serves each module at its source path.
    const [module = `/${src}`, ...imports] = modules.preloadsFor([src]);
    described.push({
      id: route.id!,
      parentId,
      path: route.path,
      ...(route.index === true && { index: true }),
      ...(handle.server !== undefined && { data: true }),
      ...(handle.boundary === true && { boundary: true }),
      ...(typeof handle.meta === 'object' && { meta: handle.meta }),
      ...clientExports(handle),
      module,
      imports,
      styles: modules.stylesFor([src]),
    });
    parentId = route.id!;
  }
  return described;
}
