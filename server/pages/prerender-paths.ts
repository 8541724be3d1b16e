import type { ListedRoute } from '../../shared/page-seam.ts';

// A route's `prerender` export (client/router/both/route-module.ts), checked at build: React
// Router framework mode's three forms, per route. `true` is the route's own path, which must have
// no parameter (a dynamic route's paths are unknown until listed); a list or a function's answer
// names paths this route answers. Anything else is the app's mistake, and fails the build
// naming the route (server/prerender.ts).

/** A typo in a function must not build a million pages (the bound SYNTHETIC_ROUTES has too, vite.config.ts). */
export const MAX_PRERENDER_PATHS = 10_000;
/** A page's path, bounded as a revalidation's is (cache-policy.ts) and a request target (server/edge/http-server.ts). */
const MAX_PATH = 2048;

export type PrerenderPaths =
  /** Paths as a request names them (percent-encoded), each answered by this route. */
  | { paths: string[] }
  /** The export is malformed or names a path the route does not answer: said as it is. */
  | { problem: string }
  /** The export's function threw (or rejected): a failure with a digest and a source line. */
  | { thrown: unknown };

/** The route's paths without parameters: its pattern, when it has none (React Router's getStaticPaths, per route). */
export function staticPathsOf(pattern: string): string[] {
  return /[:*]/.test(pattern) ? [] : [pattern];
}

/** A listed path as a request target names it, or why it is none. */
function asTarget(path: unknown): string | { problem: string } {
  if (typeof path !== 'string' || !path.startsWith('/') || path.length > MAX_PATH || /[?#\s]/.test(path)) {
    return { problem: `${JSON.stringify(path)} is not a page's path (a string starting with /, no query, at most ${MAX_PATH} characters)` };
  }
  const target = new URL(path, 'http://prerender.invalid').pathname;
  let decoded: string | undefined;
  try {
    decoded = decodeURI(target);
  } catch {
    decoded = undefined;
  }
  // Dot segments or doubled encodings would be served under another name than the one listed.
  if (target !== path && decoded !== path)
    return { problem: `${JSON.stringify(path)} is not a normalized path (it resolves to ${target})` };
  return target;
}

async function listed(route: ListedRoute, value: unknown): Promise<{ paths: unknown } | { problem: string } | { thrown: unknown }> {
  if (value === true) {
    const own = staticPathsOf(route.path);
    if (own.length > 0) return { paths: own };
    return { problem: `prerender: true needs a path without parameters, and this route's is ${route.path}: list its paths instead` };
  }
  if (Array.isArray(value)) return { paths: value };
  if (typeof value !== 'function') return { problem: 'prerender must be true, a list of paths, or a function that returns one' };
  try {
    const list = (value as (args: { getStaticPaths(): string[] }) => unknown)({ getStaticPaths: () => staticPathsOf(route.path) });
    return { paths: await list };
  } catch (thrown) {
    return { thrown };
  }
}

/**
 * The paths `route` prerenders, checked: undefined when it exports no `prerender`. `leafOf`
 * names the route that answers a path (the deepest it matches), so a path of another route is caught.
 */
export async function prerenderPathsOf(
  route: ListedRoute,
  leafOf: (path: string) => string | undefined,
): Promise<PrerenderPaths | undefined> {
  const value = await route.prerender();
  if (value === undefined) return undefined;
  if (route.isResource) return { problem: 'prerender is for pages, and this is a resource route (no page to render)' };
  const found = await listed(route, value);
  if (!('paths' in found)) return found;
  const { paths } = found;
  if (!Array.isArray(paths)) return { problem: 'prerender() must return a list of paths (or a promise of one)' };
  if (paths.length > MAX_PRERENDER_PATHS) return { problem: `prerender lists ${paths.length} paths, more than ${MAX_PRERENDER_PATHS}` };
  const targets = new Set<string>();
  for (const path of paths as unknown[]) {
    const target = asTarget(path);
    if (typeof target !== 'string') return { problem: `prerender lists ${target.problem}` };
    const leaf = leafOf(target);
    if (leaf !== route.id) {
      return {
        problem: `prerender lists ${target}, which this route does not answer (${leaf === undefined ? 'no page does' : `route ${leaf} does`})`,
      };
    }
    targets.add(target);
  }
  return { paths: [...targets] };
}
