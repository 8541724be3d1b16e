import type { ServerBuild } from 'react-router';
import { DIAGNOSTICS_PATH } from '../pages/diagnostics.ts';

// The build a request without the diagnostics token runs: the app's, less the host's diagnostic
// routes (client/router/diagnostics/routes.ts puts them under /_diag). For such a request they do
// not exist (server/pages/diagnostics.ts): a path of theirs is matched as any unknown path is,
// so its 404, its spellings and its methods are an unknown path's, and the page React Router
// writes names none of their modules (the manifest and preloads of the routes it matched).

/** A route whose own path is under /_diag: diagnosticRoutes() mounts them at the top, under a pathless layout. */
const DIAGNOSTIC_PATH = new RegExp(`^${DIAGNOSTICS_PATH.slice(1)}(/|$)`);

/** `build` without its diagnostic routes and what is below them; the build itself when it has none. */
export function withoutDiagnostics(build: ServerBuild): ServerBuild {
  const dropped = new Set<string>();
  const isDropped = (id: string | undefined): boolean => {
    if (id === undefined) return false;
    if (dropped.has(id)) return true;
    const route = build.routes[id];
    if (route === undefined) return false;
    const drop = DIAGNOSTIC_PATH.test(route.path ?? '') || isDropped(route.parentId);
    if (drop) dropped.add(id);
    return drop;
  };
  const routes = Object.fromEntries(Object.entries(build.routes).filter(([id]) => !isDropped(id)));
  if (dropped.size === 0) return build;
  // The browser's manifest of the routes too: React Router renders the routes both name.
  const manifest = Object.fromEntries(Object.entries(build.assets.routes).filter(([id]) => !dropped.has(id)));
  return { ...build, routes, assets: { ...build.assets, routes: manifest } };
}
