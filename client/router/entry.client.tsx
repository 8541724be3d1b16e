// The browser's entry of every app that has no entry.client of its own (vite/react-router-host.ts
// puts it where React Router would put its default, @react-router/dev's entry.client.tsx, which it
// follows): React Router's HydratedRouter, with the host's error reporting around it. Each
// failure in the browser is logged to the console once with its digest and reported once (to
// Sentry when the page says it is configured, else to the server's own endpoint); a chunk of an
// older release reloads the page once (./stale-chunk.ts).
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
// An error inside a page keeps the error pages' look (shared/ErrorPage.tsx).
import 'virtual:react-ssr-host/error-page.css';
import { RUNTIME_GLOBAL } from '../../shared/runtime.ts';
import { createErrorHooks, reportToServer } from './error-hooks.tsx';
import { Hydrated } from './Hydrated.tsx';
import { reloadOnStaleChunk } from './stale-chunk.ts';

reloadOnStaleChunk();
const sentry = window[RUNTIME_GLOBAL]?.sentry;
// Sentry starts before hydration so the page load and any hydration error are seen; without a
// DSN its chunk is never fetched and failures go to the server's own endpoint.
const hooks = sentry ? (await import('./sentry.ts')).initSentry(sentry) : createErrorHooks(reportToServer);

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <Hydrated>
        <HydratedRouter />
      </Hydrated>
    </StrictMode>,
    hooks,
  );
});
