// What the host keeps on each route object's `handle`: the table's fields and, once the page
// module has loaded, its framework-mode exports that React Router's route objects have no field
// for. The app's own `handle` export is merged in beside them (useMatches() reads it).
import type { RouteMatch } from 'react-router';
import type { RouteMeta } from '../../../shared/route-discovery.ts';
import type { PageModule, ServerModule } from './route-module.ts';

export interface RouteHandle {
  /** The table's static meta. */
  meta?: RouteMeta;
  diagnostics?: boolean;
  /** The page module's source path, when the build tagged it. */
  src?: string;
  /** The route's `*.server.ts` module (a stub that rejects, in the browser). */
  server?: () => Promise<ServerModule>;
  /** No page: the loader's or action's Response is the answer. */
  resource: boolean;
  /** Its failures show in its own boundary (the table's `boundary`). */
  boundary?: boolean;
  /** The browser's: loads the page's code and fetches its stylesheets without applying them (a prefetch). */
  preload?: () => Promise<unknown>;
  /** The browser's: the page has a clientLoader or clientAction (known before its module loads). */
  client?: { loader: boolean; action: boolean };
  /** The page module, once loaded: its `meta`, `links`, `ErrorBoundary`, client data functions. */
  page?: PageModule;
  [key: string]: unknown;
}

export function handleOf(match: Pick<RouteMatch, 'route'>): RouteHandle {
  return (match.route.handle as RouteHandle | undefined) ?? { resource: false };
}
