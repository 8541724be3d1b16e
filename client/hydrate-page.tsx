import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { RUNTIME_GLOBAL, type RuntimeConfig } from '../shared/runtime.ts';
import { SERVER_CHANGE_EVENT } from '../shared/server-change.ts';
import { App } from './App.tsx';
import { Hydrated } from './Hydrated.tsx';
import { createErrorHooks, reportToServer } from './report-error.tsx';
import { connectPageScripts, createDeferredRegistry, DeferredPlaceholders } from './router/browser/deferred-client.tsx';
import { PrefetchContext } from './router/both/Link.tsx';
import { routeFailure } from './router/both/route-failure.ts';
import { lazyNavigation } from './router/browser/lazy-navigation.ts';
import { createRouteTable } from './router/browser/route-table.ts';
import { reloadOnStaleChunk } from './stale-chunk.ts';

declare global {
  interface Window {
    [RUNTIME_GLOBAL]?: RuntimeConfig;
  }
}

/**
 * Hydrates the server's page: the browser's whole start, but for the entry's stylesheets. The
 * entry (client/entry-client.tsx) imports them and calls this, so this code is in the first
 * load's one file with React and React Router while the stylesheets stay the entry's own
 * (docs/performance.md, "First-load JavaScript").
 */
export async function hydratePage(): Promise<void> {
  const written = window[RUNTIME_GLOBAL];
  if (written === undefined) throw new Error('The server did not write the runtime configuration');
  // A page prerendered at build names no host (no request made it): the one the browser used is shown.
  const config = written.hostname === '' ? { ...written, hostname: window.location.hostname } : written;

  reloadOnStaleChunk();

  // Sentry starts before hydration so the page load and any hydration error are seen; without a
  // DSN its chunk is never fetched and failures go to the server's own endpoint.
  const errorHooks = config.sentry ? (await import('./sentry.ts')).initSentry(config.sentry) : createErrorHooks(reportToServer);

  // The router starts from the routes this page matched and learns others from the server as
  // links are prefetched or followed. Loader data comes from the server too: in this page for the
  // first render, then per navigation; actions run there, asked by the same data strategy.
  const initialPath = window.location.pathname;
  const table = createRouteTable(config.router.routes);
  const { routes } = table;

  await loadMatchedRoutes(routes);

  const deferred = createDeferredRegistry();
  connectPageScripts(deferred.settle);
  // Once the whole response has been parsed, a value whose script never came will not come (the
  // server's render was cut short): its section shows a failure instead of loading for ever.
  const abandonPending = () => deferred.abandon(routeFailure(503, undefined));
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', abandonPending, { once: true });
  else abandonPending();
  const loaderData = deferred.revive(config.router.loaderData);
  // A route whose clientLoader runs at hydration starts without data, so React Router shows its
  // HydrateFallback (what the server sent); its serverLoader() answers with the page's data.
  const hydrating = new Set(config.router.routes.filter((route) => route.clientLoader === 'hydrate').map((route) => route.id));
  // Prefetching, the data strategy and route discovery come in a chunk of their own, which
  // hydration does not wait for.
  const navigation = lazyNavigation({
    build: config.build,
    routes: () => router.routes,
    table,
    initialPath,
    initial: config.router.routes,
    patchRoutes: (parentId, children) => router.patchRoutes(parentId, children),
    navigation: () => router.state.navigation,
    revalidating: () => router.state.revalidation === 'loading',
    hydrated: loaderData,
  });
  const { prefetcher } = navigation;
  const router = createBrowserRouter(routes, {
    hydrationData: {
      loaderData: Object.fromEntries(Object.entries(loaderData).filter(([id]) => !hydrating.has(id))),
      actionData: config.router.actionData,
      errors: config.router.errors,
    },
    dataStrategy: navigation.dataStrategy,
    patchRoutesOnNavigation: navigation.patchRoutesOnNavigation,
  });

  // Development: a loader or action edited on the server reloads the open page's data, not the
  // page (server/assets/server-change-events.ts). `import.meta.hot` is undefined in a build.
  if (import.meta.hot) import.meta.hot.on(SERVER_CHANGE_EVENT, () => void router.revalidate());

  hydrateRoot(
    document,
    <StrictMode>
      <Hydrated>
        <PrefetchContext value={prefetcher}>
          <App
            config={config}
            router={<RouterProvider router={router} onError={quiet} />}
            after={<DeferredPlaceholders ids={config.router.deferred} />}
          />
        </PrefetchContext>
      </Hydrated>
    </StrictMode>,
    errorHooks,
  );
  // Fetched while React hydrates, which never waits for it: a link in view or a click finds it here.
  void navigation.load().catch(() => {});
}

/** The matched routes' code must be here before hydration, or React would render nothing for them. */
async function loadMatchedRoutes(all: RouteObject[]): Promise<void> {
  const matches = matchRoutes(all, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      Object.assign(route, await route.lazy(), { lazy: undefined });
    }),
  );
}

/** React's root hooks report errors once (report-error.tsx); the router must not log them again. */
const quiet = () => {};
