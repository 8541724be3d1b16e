// What the host adds to an app's route table (client/routes.tsx holds only the app's): its
// diagnostic routes, which answer only requests with DIAGNOSTICS_TOKEN, and a benchmark's
// synthetic routes, none unless the build was asked for them (vite.config.ts, SYNTHETIC_ROUTES).
import type { RouteEntry } from '../both/route-entry.ts';
import { diagnosticRoutes } from '../diagnostics/diagnostic-routes.ts';
import { syntheticRoutes } from '../synthetic/synthetic-routes.ts';

/**
 * The app's table with the host's routes: synthetic routes go under the app's first layout (a
 * top-level route with children), where an app's own pages are, so they cost what its pages cost.
 */
export function withHostRoutes(entries: readonly RouteEntry[]): RouteEntry[] {
  const layout = syntheticRoutes.length === 0 ? -1 : entries.findIndex((entry) => entry.path === undefined && entry.children !== undefined);
  const table = entries.map((entry, i) => (i === layout ? { ...entry, children: [...entry.children!, ...syntheticRoutes] } : entry));
  return [...table, ...diagnosticRoutes];
}
