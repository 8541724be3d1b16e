// Benchmark routes (docs/performance.md, "Route-table growth"): none. A build with
// SYNTHETIC_ROUTES=<n> replaces this module with n routes `/synthetic/<i>/:id`, each written
// out as an app writes one (vite.config.ts, syntheticRoutes()).
import type { RouteEntry } from '../../host.ts';

export const syntheticRoutes: RouteEntry[] = [];
