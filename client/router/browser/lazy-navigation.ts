// The prefetcher, the data strategy and route discovery are small stand-ins in the first load;
// their code (./client-navigation.ts: prefetching, the data strategy, the data client, route
// discovery's requests) is one chunk that
// the entry starts fetching once it has started hydration, which never waits for it
// (docs/performance.md, "First-load JavaScript"). A link in view, an intent or a navigation
// before it has come waits for it.
import type { DataStrategyFunction, PatchRoutesOnNavigationFunction } from 'react-router';
import type { NavigationDeps } from './client-navigation.ts';
import { documentLoadOf, loadDocument, withDeadline } from './document-load.ts';
import type { Prefetcher } from './prefetch.ts';

type Navigation = ReturnType<(typeof import('./client-navigation.ts'))['createNavigation']>;

export interface LazyNavigation {
  prefetcher: Prefetcher;
  dataStrategy: DataStrategyFunction;
  /** React Router's, for paths it does not know yet (./route-discovery.ts). */
  patchRoutesOnNavigation: PatchRoutesOnNavigationFunction;
  /** Fetches the chunk, once; every stand-in asks for it too. */
  load(): Promise<Navigation>;
}

/** Nothing to do when a prefetch cannot run: the click asks again. */
const ignore = () => {};

export function lazyNavigation(deps: NavigationDeps): LazyNavigation {
  let navigation: Promise<Navigation> | undefined;
  const load = () =>
    (navigation ??= import('./client-navigation.ts').then((module) =>
      // Vite's import resolves to nothing once a chunk of an older release has made the page
      // reload (client/stale-chunk.ts): nothing may run, or render, over that reload.
      (module as typeof module | undefined) === undefined ? new Promise<never>(() => {}) : module.createNavigation(deps),
    ));
  const prefetcher = () => load().then((loaded) => loaded.prefetcher);

  return {
    load,
    prefetcher: {
      prefetch: (url) => void prefetcher().then((p) => p.prefetch(url), ignore),
      observe(element, url, data) {
        let stop: (() => void) | undefined;
        let stopped = false;
        void prefetcher().then((p) => {
          if (!stopped) stop = p.observe(element, url, data);
        }, ignore);
        return () => {
          stopped = true;
          stop?.();
        };
      },
      take: (url, routeIds, revalidation) => prefetcher().then((p) => p.take(url, routeIds, revalidation)),
      forget: () => void prefetcher().then((p) => p.forget(), ignore),
      loadCode: (url) => prefetcher().then((p) => p.loadCode(url)),
    },
    // A page load whose code did not come is left to the server, as one whose data did not
    // (./navigation.ts); a write is not, or what was posted would be lost.
    dataStrategy: (args) =>
      load().then(
        (loaded) => loaded.dataStrategy(args),
        (error: unknown) => {
          if (args.request.method === 'GET') return loadDocument(args.request.url, args.request.signal);
          throw error;
        },
      ),
    // A page load waits for the chunk no longer than for its answer (./document-load.ts); a
    // fetcher's or a submission's path, if the chunk does not come, ends as React Router's 404.
    patchRoutesOnNavigation: async (args) => {
      const href = documentLoadOf(args, deps.navigation());
      const loaded = await (href === undefined ? load() : withDeadline(load(), href, args.signal)).catch(() => undefined);
      if (loaded !== undefined) return loaded.patchRoutesOnNavigation(args);
      if (href !== undefined) await loadDocument(href, args.signal);
    },
  };
}
