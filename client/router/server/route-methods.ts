// Which route of a URL's matches a request is for, and which methods it answers: a write goes to
// the deepest route with a path (an index route's own only with `?index`), React Router's rule
// for forms (its getTargetMatch), so a plain HTML form and <Form> post to the same action.
import type { RouteMatch } from 'react-router';
import { ACTION_METHODS } from '../../../shared/page-seam.ts';
import type { RouteHandle } from '../both/route-handle.ts';

const READ_METHODS = ['GET', 'HEAD'];

export function targetOf<M extends RouteMatch>(matches: readonly M[], url: URL): M {
  const leaf = matches.at(-1)!;
  if (leaf.route.index && url.searchParams.getAll('index').includes('')) return leaf;
  // React Router's getPathContributingMatches: the root, and routes with a path of their own.
  return matches.filter((m, i) => i === 0 || (m.route.path !== undefined && m.route.path.length > 0)).at(-1)!;
}

/** GET and HEAD for a page (or a resource route with a loader), the write methods with an action. */
export async function methodsOf(target: RouteHandle): Promise<readonly string[]> {
  const module = await target.server?.();
  const reads = !target.resource || module?.loader !== undefined ? READ_METHODS : [];
  return module?.action !== undefined ? [...reads, ...ACTION_METHODS] : reads;
}

/** The target route's own body limits, as its module exports them (the host checks them: server/config/body-limits.ts). */
export async function bodyLimitsOf(target: RouteHandle): Promise<unknown> {
  return (await target.server?.())?.bodyLimits;
}

/** The leaf route's `cache` export, as its module has it (the host checks it: server/pages/cache-policy.ts). */
export async function cachePolicyOf(leaf: RouteHandle): Promise<unknown> {
  return (await leaf.server?.())?.cache;
}
