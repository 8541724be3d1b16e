// The browser's side of shared/route-discovery.ts: its router starts from the routes the
// document's URL matched, and learns the others from the server (React Router's
// patchRoutesOnNavigation) when a link is prefetched or followed. A path the server has no page
// for, an answer that does not come in time, or one from another release: the browser loads
// the document, and the server answers (its 404, its resource route, the new release).
import type { MiddlewareFunction, Navigation, PatchRoutesOnNavigationFunction, RouteObject } from 'react-router';
import { runChain } from '../both/middleware-chain.ts';
import {
  discoveryBatchUrl,
  discoveryUrl,
  MAX_BATCH_URL_LENGTH,
  type DiscoveryAnswer,
  type DiscoveryBatchAnswer,
  type RouteDescriptor,
} from '../../../shared/route-discovery.ts';
import type { RouteHandle } from '../both/route-handle.ts';
import { loadDocument, withDeadline } from './document-load.ts';
import { hostRoute, lazyPage } from '../both/react-router-routes.ts';
import type { PageModule } from '../both/route-entry.ts';
import { RouteErrorBoundary } from '../both/RouteErrorBoundary.tsx';
import { applyStyles, preloadStyles } from './route-styles.ts';
import { setNewest } from '../../../shared/bounded-map.ts';

/** Paths whose answer is kept; a page of many links asks for many. Bounds memory, not correctness. */
const MAX_KNOWN_PATHS = 500;

/** Loader data comes from the server, through the data strategy (./navigation.ts), never from here. */
const fromServer = () => {
  throw new Error('Route data is loaded by the data strategy (client/router/browser/navigation.ts)');
};

const preloaded = new Set<string>();
/** The page's module and, in parallel, the chunks it imports: no waterfall of imports. */
function loadModule(route: RouteDescriptor): Promise<PageModule> {
  for (const href of route.imports) {
    if (preloaded.has(href)) continue;
    preloaded.add(href);
    document.head.append(Object.assign(document.createElement('link'), { rel: 'modulepreload', href }));
  }
  return (import(/* @vite-ignore */ route.module) as Promise<PageModule>).catch((error: unknown) => {
    // A chunk of a release no longer served: client/stale-chunk.ts reloads the page, as for Vite's own imports.
    const event = Object.assign(new Event('vite:preloadError', { cancelable: true }), { payload: error });
    window.dispatchEvent(event);
    if (event.defaultPrevented) return new Promise<never>(() => {});
    throw error;
  });
}

/**
 * The route's loader as React Router sees it: the data strategy answers it (./navigation.ts),
 * calling the page's clientLoader where it has one. One that runs at hydration is marked so, and
 * React Router renders the route's HydrateFallback (which the server sent) until it has run.
 */
function loaderOf(route: RouteDescriptor) {
  if (route.clientLoader === 'hydrate') return Object.assign(() => fromServer(), { hydrate: true as const });
  return route.data || route.clientLoader ? fromServer : undefined;
}

function toRouteObject(route: RouteDescriptor): RouteObject {
  // A resource route: the data strategy posts to its action, and loads any GET as a document.
  if (route.resource) return { id: route.id, path: route.path, loader: fromServer, action: fromServer, handle: { resource: true } };
  const preload = () => {
    preloadStyles(route.styles);
    return loadModule(route);
  };
  const client = { loader: route.clientLoader !== undefined, action: route.clientAction === true };
  const handle: RouteHandle = { meta: route.meta, resource: false, boundary: route.boundary, preload, client };
  const object = {
    id: route.id,
    path: route.path,
    lazy: lazyPage(
      () => loadModule(route),
      handle,
      () => applyStyles(route.styles),
    ),
    loader: loaderOf(route),
    action: (route.data || route.clientAction) && fromServer,
    // Client middleware runs around the data strategy (./navigation.ts), parents first.
    middleware: route.clientMiddleware && [
      async (args: Parameters<MiddlewareFunction>[0], next: Parameters<MiddlewareFunction>[1]) =>
        runChain((handle.page ?? (await loadModule(route))).clientMiddleware ?? [], args, next),
    ],
    ErrorBoundary: route.boundary && RouteErrorBoundary,
    handle,
  };
  return route.index ? { ...object, index: true } : object;
}

async function fetchAnswer(pathname: string, build: string): Promise<readonly RouteDescriptor[]> {
  const response = await fetch(discoveryUrl(pathname, build), { headers: { Accept: 'application/json' } });
  // 409: this page is from another release; anything else but a 200 says nothing about routes.
  if (!response.ok) throw new Error(`Route discovery answered ${response.status}`);
  const { routes } = (await response.json()) as Partial<DiscoveryAnswer>;
  if (!Array.isArray(routes)) throw new Error('Route discovery answered without routes');
  return routes as readonly RouteDescriptor[];
}

interface Waiting {
  resolve(routes: readonly RouteDescriptor[]): void;
  reject(error: unknown): void;
}

/** Asks for these paths' routes, as few requests as the URL length allows; each path's promise settles with its answer. */
function fetchBatch(waiting: Map<string, Waiting>, build: string): void {
  const groups: string[][] = [[]];
  for (const path of waiting.keys()) {
    const group = groups.at(-1)!;
    if (group.length > 0 && discoveryBatchUrl([...group, path], build).length > MAX_BATCH_URL_LENGTH) groups.push([path]);
    else group.push(path);
  }
  for (const paths of groups) {
    const answered = fetch(discoveryBatchUrl(paths, build), { headers: { Accept: 'application/json' } }).then(async (response) => {
      if (!response.ok) throw new Error(`Route discovery answered ${response.status}`);
      const { branches } = (await response.json()) as Partial<DiscoveryBatchAnswer>;
      if (typeof branches !== 'object') throw new Error('Route discovery answered without branches');
      return branches;
    });
    for (const path of paths) {
      const { resolve, reject } = waiting.get(path)!;
      answered.then((branches) => {
        const routes = branches[path];
        if (Array.isArray(routes)) resolve(routes as readonly RouteDescriptor[]);
        else reject(new Error(`Route discovery left out ${path}`));
      }, reject);
    }
  }
}

export interface RouteDiscovery {
  /** The document's routes under the host's root: what the router starts from. */
  readonly routes: RouteObject[];
  /** The routes with server data, known so far (the data strategy asks the server for these). */
  readonly dataRouteIds: ReadonlySet<string>;
  /**
   * Learns the routes of a path into the router; resolves whether a page answers it. `batch`:
   * asked with the other paths asked for in the same task, in one request (links coming into view).
   */
  discover(pathname: string, patch: (parentId: string, children: RouteObject[]) => void, batch?: boolean): Promise<boolean>;
  /** `navigation`: the router's (where it is going, with the query a document load needs). */
  patchRoutesOnNavigation(navigation: () => Navigation): PatchRoutesOnNavigationFunction;
}

export function createRouteDiscovery(build: string, initial: readonly RouteDescriptor[]): RouteDiscovery {
  const known = new Set<string>();
  const dataRouteIds = new Set<string>();
  const answers = new Map<string, Promise<readonly RouteDescriptor[]>>();
  const root = hostRoute([]);
  const byId = new Map<string, RouteObject>([[root.id!, root]]);

  let batch: Map<string, Waiting> | undefined;
  /** A path for the next batch: the links that come into view together are asked for at the end of this task. */
  function batched(pathname: string): Promise<readonly RouteDescriptor[]> {
    if (batch === undefined) {
      const waiting = (batch = new Map<string, Waiting>());
      setTimeout(() => {
        batch = undefined;
        fetchBatch(waiting, build);
      });
    }
    const pending = batch;
    return new Promise((resolve, reject) => pending.set(pathname, { resolve, reject }));
  }

  function answerFor(pathname: string, inBatch = false): Promise<readonly RouteDescriptor[]> {
    let answer = answers.get(pathname);
    if (answer === undefined) {
      answer = inBatch ? batched(pathname) : fetchAnswer(pathname, build);
      // A failed answer is asked for again next time.
      answer.catch(() => answers.get(pathname) === answer && answers.delete(pathname));
      setNewest(answers, pathname, answer, MAX_KNOWN_PATHS);
    }
    return answer;
  }

  function learn(found: readonly RouteDescriptor[], patch: (parentId: string, children: RouteObject[]) => void): boolean {
    for (const route of found) {
      if (known.has(route.id)) continue;
      known.add(route.id);
      if (route.data) dataRouteIds.add(route.id);
      patch(route.parentId, [toRouteObject(route)]);
    }
    return found.length > 0;
  }

  // The document's own routes, parents first, before the router exists; a way back to this
  // path (a dynamic route is checked for a more specific one) need not ask again.
  answers.set(window.location.pathname, Promise.resolve(initial));
  learn(initial, (parentId, [child]) => {
    const parent = byId.get(parentId)!;
    (parent.children ??= []).push(child!);
    byId.set(child!.id!, child!);
  });

  const discover = async (pathname: string, patch: (parentId: string, children: RouteObject[]) => void, inBatch = false) =>
    learn(await answerFor(pathname, inBatch), patch);

  const patchRoutesOnNavigation =
    (navigation: () => Navigation): PatchRoutesOnNavigationFunction =>
    async ({ path, patch, signal, fetcherKey }) => {
      const { location, formMethod } = navigation();
      const href = new URL(location?.pathname === path ? path + location.search + location.hash : path, window.location.href).href;
      // Only a page load may become a document load: a fetcher's or a submission's path without
      // a page ends as React Router's 404 in its route (a GET in its place would lose the post).
      const loads = fetcherKey === undefined && (formMethod === undefined || formMethod.toUpperCase() === 'GET');
      const answer = loads ? withDeadline(answerFor(path), href, signal) : answerFor(path);
      const found = await answer.catch(() => undefined);
      if (found !== undefined && learn(found, (parentId, children) => patch(parentId, children))) return;
      if (loads) await loadDocument(href, signal);
    };

  return { routes: [root], dataRouteIds, discover, patchRoutesOnNavigation };
}
