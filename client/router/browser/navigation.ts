// Client navigation: React Router's data strategy, fetching every loader a navigation needs in
// one request (shared/route-data.ts), from a prefetch when a fresh one exists. A navigation
// that has not loaded its code and data in time becomes a document load. A submission (<Form>,
// a fetcher) posts its body to the same endpoint, which runs the one action; React Router then
// revalidates the loaders with a request of its own.
import { redirect, type DataStrategyFunction, type DataStrategyResult } from 'react-router';
import type { Prefetcher } from './prefetch.ts';
import { fetchRouteData, type RouteData } from './route-data-client.ts';
import { routeFailure } from '../both/route-failure.ts';
import { handleOf } from '../both/route-handle.ts';
import { loadDocument, withDeadline } from './document-load.ts';

/**
 * Sends a submission's body to the action. A post that fails as a request is shown as a 503 in
 * the route's boundary: loading the document instead would drop what the user typed.
 */
async function submit(request: Request, pageUrl: string, routeIds: readonly string[]): Promise<RouteData> {
  const body = await request.arrayBuffer();
  const type = request.headers.get('Content-Type');
  try {
    return await fetchRouteData(pageUrl, routeIds, {
      method: request.method,
      body,
      headers: type === null ? {} : { 'Content-Type': type },
      signal: request.signal,
    });
  } catch {
    return { data: {}, errors: { [routeIds.at(-1)!]: routeFailure(503, undefined) } };
  }
}

/** A route's answer in a navigation's data: its data, its failure, or the redirect of the whole answer. */
async function fromAnswer(response: Promise<RouteData>, routeId: string): Promise<unknown> {
  const answer = await response;
  // The router follows it; a path without a page becomes a document load (./route-discovery.ts).
  if (answer.redirect !== undefined) throw redirect(answer.redirect);
  const failure = answer.errors?.[routeId];
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- a route failure is data (status, digest) for the boundary
  if (failure !== undefined) throw failure;
  return answer.data[routeId] ?? null;
}

/**
 * `revalidating`: whether the router is revalidating (its state's `revalidation`), which never
 * reads a prefetch. `hydrated`: the loader data the server wrote into the page, which a
 * `clientLoader` that runs at hydration gets from `serverLoader()` instead of asking again.
 */
export function createDataStrategy(
  prefetcher: Prefetcher,
  serverRouteIds: ReadonlySet<string>,
  revalidating: () => boolean,
  hydrated: Readonly<Record<string, unknown>>,
): DataStrategyFunction {
  const strategy: DataStrategyFunction = ({ request, matches, context, pattern, unstable_initiator: initiator }) => {
    const { signal } = request;
    const url = new URL(request.url);
    const pageUrl = url.pathname + url.search;
    const mutation = request.method !== 'GET';
    // A resource route's GET is the server's answer, not a page (./route-discovery.ts).
    if (!mutation && matches.some((m) => handleOf(m).resource)) return loadDocument(url.href, signal);
    const toLoad = matches.filter((m) => m.shouldCallHandler());
    // A route whose page has a clientLoader (clientAction) asks the server only when it calls serverLoader().
    const ownFunction = (m: (typeof matches)[number]) => handleOf(m).client?.[mutation ? 'action' : 'loader'] === true;
    const routeIds = toLoad.filter((m) => !ownFunction(m) && serverRouteIds.has(m.route.id)).map((m) => m.route.id);
    // What was prefetched before a write may be what it changed.
    if (mutation) prefetcher.forget();
    // A data request that fails as a request (the network, or an answer that is not route data)
    // says nothing a boundary could show: the browser loads the document, and the server answers.
    const response =
      routeIds.length === 0
        ? undefined
        : mutation
          ? submit(request, pageUrl, routeIds)
          : prefetcher.take(pageUrl, routeIds, revalidating()).catch(() => loadDocument(url.href, signal));
    /** A clientLoader's or clientAction's serverLoader()/serverAction(): its route's data alone. */
    const fromServer = (id: string, posted: Request) => () => {
      if (initiator === 'initialization' && id in hydrated) return Promise.resolve(hydrated[id]);
      return fromAnswer(mutation ? submit(posted, pageUrl, [id]) : fetchRouteData(pageUrl, [id], { signal }), id);
    };
    const results = Promise.all(
      toLoad.map(async (m): Promise<[string, DataStrategyResult]> => {
        const result = await m.resolve(async () => {
          if (!ownFunction(m)) return fromAnswer(response!, m.route.id);
          // resolve() has loaded the route's page module by now.
          const page = handleOf(m).page!;
          const serverData = fromServer(m.route.id, mutation ? request.clone() : request);
          const args = { request, url, pattern, params: m.params, context, serverLoader: serverData, serverAction: serverData };
          // serverLoader() is typed generic by React Router (its SerializeFrom<T>); what it resolves to is the route's data as JSON carries it.
          return mutation ? page.clientAction!(args as never) : page.clientLoader!(args as never);
        });
        return [m.route.id, result];
      }),
    ).then(Object.fromEntries<DataStrategyResult>);
    // The code of every matched route (layouts and pages without loaders too) is inside the
    // deadline; at hydration it is loaded already (client/hydrate-page.tsx), and the router not yet made.
    const code = initiator === 'initialization' ? undefined : prefetcher.loadCode(pageUrl);
    const work = Promise.all([results, code]).then(([loaded]) => loaded);
    // A write is never turned into a document load: that would be a GET, and the post lost.
    return mutation ? work : withDeadline(work, url.href, signal);
  };
  // Client middleware (a page's clientMiddleware) runs around the loaders, as React Router's own strategy runs it.
  return (args) => (args.matches.some((m) => (m.route.middleware?.length ?? 0) > 0) ? args.runClientMiddleware(strategy) : strategy(args));
}
