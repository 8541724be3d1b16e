import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router';
import { canonicalPath } from '../../shared/canonical-path.ts';
import { boundedMemo } from '../../shared/bounded-memo.ts';

// What the host needs of a route before React Router runs it (docs/architecture.md): which
// methods it answers (a 405 with Allow, RFC 9110 §15.5.6), the limits its action's body is held
// to, whether the store may keep its page, and the page's one spelling (shared/canonical-path.ts).
// Read from the built route table through React Router's own matching (`matchRoutes`), once per
// request, and from what each route module exports.

export const READ_METHODS = ['GET', 'HEAD'];
/** The methods that run an action (React Router's mutation methods). */
export const ACTION_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

type BuildRoute = NonNullable<ServerBuild['routes'][string]>;
type Module = Record<string, unknown>;
export type TableRoute = RouteObject & { id: string; module: Module };

export interface Matched {
  /** The deepest route: its id labels the access line and the metrics. */
  leaf: TableRoute;
  /** The route a write goes to: React Router's rule for forms (its getTargetMatch). */
  target: TableRoute;
  /** A route without a page: its loader's or action's Response is the answer. */
  resource: boolean;
  /** The methods the target answers: GET and HEAD for a page or a loader, the write methods with an action. */
  methods: readonly string[];
  /** The page's one spelling, for `path` as sent. */
  spelling(): string;
}

/** The build's flat table (`parentId`) as React Router's nested route objects. */
function treeOf(routes: ServerBuild['routes']): TableRoute[] {
  const children = new Map<string | undefined, BuildRoute[]>();
  for (const route of Object.values(routes)) {
    if (route === undefined) continue;
    children.set(route.parentId, [...(children.get(route.parentId) ?? []), route]);
  }
  const build = (parentId: string | undefined): TableRoute[] =>
    (children.get(parentId) ?? []).map(
      (route) =>
        ({
          id: route.id,
          path: route.path,
          index: route.index,
          caseSensitive: route.caseSensitive,
          module: route.module as unknown as Module,
          ...(route.index ? {} : { children: build(route.id) }),
        }) as TableRoute,
    );
  return build(undefined);
}

export type RouteTable = ReturnType<typeof createRouteTable>;

/**
 * Paths whose matches (and spellings) a table remembers. React Router's `matchRoutes` flattens and
 * ranks the whole tree on every call: a tenth of a page's CPU when it ran three times a request
 * (docs/performance.md). A site's pages are few; a client that sends a new path every time costs
 * at most this many entries (shared/bounded-memo.ts), and a path past MAX_REMEMBERED_PATH is matched afresh.
 */
const REMEMBERED_PATHS = 2_000;
const MAX_REMEMBERED_PATH = 1_024;

export function createRouteTable(build: ServerBuild) {
  const tree = treeOf(build.routes);
  type Matches = { route: TableRoute; params: Record<string, string | undefined> }[] | null;
  const match = boundedMemo((path: string) => matchRoutes(tree, path) as Matches, REMEMBERED_PATHS, MAX_REMEMBERED_PATH);
  const spellingOf = boundedMemo((path: string) => canonicalPath(path, match) ?? path, REMEMBERED_PATHS, MAX_REMEMBERED_PATH);
  const root = build.routes.root?.module as Module | undefined;
  return {
    /**
     * Whether a document no route matches is the host's own 404 page whatever React Router does:
     * the app's root has no ErrorBoundary to show it (./host-build.ts answers in its place) and no
     * middleware that would run first. Then the host answers it without running React Router.
     */
    hostAnswersUnmatched: root !== undefined && typeof root.ErrorBoundary !== 'function' && root.middleware === undefined,
    /** The routes `path` (as sent, no query) reaches; `index`: the query names the index route (`?index`). */
    match(path: string, index: boolean): Matched | undefined {
      const matches = match(path);
      if (matches === null) return undefined;
      const leaf = matches.at(-1)!.route;
      // React Router's getPathContributingMatches: the root, and routes with a path of their own.
      const target =
        leaf.index && index
          ? leaf
          : matches.filter((m, i) => i === 0 || (m.route.path !== undefined && m.route.path.length > 0)).at(-1)!.route;
      const resource = typeof leaf.module.default !== 'function';
      const reads = !resource || typeof target.module.loader === 'function' ? READ_METHODS : [];
      const methods = typeof target.module.action === 'function' ? [...reads, ...ACTION_METHODS] : reads;
      return { leaf, target, resource, methods, spelling: () => spellingOf(path) };
    },
  };
}
