import '@vitejs/plugin-react/preamble';
import { StrictMode, useEffect, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { RUNTIME_GLOBAL, type RuntimeConfig } from '../shared/runtime.ts';
import { App } from './App.tsx';
import { createErrorHooks, reportToServer } from './report-error.tsx';
import { reloadOnStaleChunk } from './stale-chunk.ts';
import './styles.css';

declare global {
  interface Window {
    [RUNTIME_GLOBAL]?: RuntimeConfig;
  }
}

const config = window[RUNTIME_GLOBAL];
if (config === undefined) throw new Error('The server did not write the runtime configuration');

reloadOnStaleChunk();

// Sentry starts before hydration so the page load and any hydration error are seen; without a
// DSN its chunk is never fetched and failures go to the server's own endpoint.
const errorHooks = config.sentry ? (await import('./sentry.ts')).initSentry(config.sentry) : createErrorHooks(reportToServer);

/** Marks the document once React has hydrated it (an effect runs only after hydration). */
function Hydrated({ children }: { children: ReactNode }) {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return children;
}

hydrateRoot(
  document,
  <StrictMode>
    <Hydrated>
      <App config={config} />
    </Hydrated>
  </StrictMode>,
  errorHooks,
);
