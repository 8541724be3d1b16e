// The browser's side of shared/route-discovery.ts: its router starts from the routes the
// document's URL matched (./route-table.ts), and learns the others from the server (React
// Router's patchRoutesOnNavigation) when a link is prefetched or followed. A path the server has
// no page for, an answer that does not come in time, or one from another release: the browser
// loads the document, and the server answers (its 404, its resource route, the new release).
// In the navigation chunk (./client-navigation.ts): the first load never asks the server for routes.
import type { Navigation, PatchRoutesOnNavigationFunction } from 'react-router';
import {
  discoveryBatchUrl,
  discoveryUrl,
  MAX_BATCH_URL_LENGTH,
  type DiscoveryAnswer,
  type DiscoveryBatchAnswer,
  type RouteDescriptor,
} from '../../../shared/route-discovery.ts';
import { documentLoadOf, loadDocument, withDeadline } from './document-load.ts';
import type { PatchRoutes, RouteTable } from './route-table.ts';
import { setNewest } from '../../../shared/bounded-map.ts';

/** Paths whose answer is kept; a page of many links asks for many. Bounds memory, not correctness. */
const MAX_KNOWN_PATHS = 500;

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
  /**
   * Learns the routes of a path into the router; resolves whether a page answers it. `batch`:
   * asked with the other paths asked for in the same task, in one request (links coming into view).
   */
  discover(pathname: string, patch: PatchRoutes, batch?: boolean): Promise<boolean>;
  /** `navigation`: the router's (where it is going, with the query a document load needs). */
  patchRoutesOnNavigation(navigation: () => Navigation): PatchRoutesOnNavigationFunction;
}

/** `initialPath` and `initial`: the document's path and the routes it matched, which the table already holds. */
export function createRouteDiscovery(
  build: string,
  table: Pick<RouteTable, 'learn'>,
  initialPath: string,
  initial: readonly RouteDescriptor[],
): RouteDiscovery {
  const answers = new Map<string, Promise<readonly RouteDescriptor[]>>();
  const { learn } = table;

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

  // A way back to the document's path (a dynamic route is checked for a more specific one) need not ask again.
  answers.set(initialPath, Promise.resolve(initial));

  const discover = async (pathname: string, patch: PatchRoutes, inBatch = false) => learn(await answerFor(pathname, inBatch), patch);

  const patchRoutesOnNavigation =
    (navigation: () => Navigation): PatchRoutesOnNavigationFunction =>
    async (args) => {
      const { path, patch, signal } = args;
      const href = documentLoadOf(args, navigation());
      const answer = href === undefined ? answerFor(path) : withDeadline(answerFor(path), href, signal);
      const found = await answer.catch(() => undefined);
      if (found !== undefined && learn(found, (parentId, children) => patch(parentId, children))) return;
      if (href !== undefined) await loadDocument(href, signal);
    };

  return { discover, patchRoutesOnNavigation };
}
