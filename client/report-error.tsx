import type { ErrorInfo } from 'react';
import { createRoot } from 'react-dom/client';
import { clientDigest } from '../shared/client-digest.ts';
import { ErrorPage } from '../shared/ErrorPage.tsx';

// React 19's root error hooks. Each failure is logged to the console once, with its digest.

/** An error the root boundary caught; the boundary already shows the client error page. */
export function reportCaughtError(error: unknown, info: ErrorInfo): void {
  console.error(`Client error (digest ${clientDigest(error)})`, error, info.componentStack ?? '');
}

/** React recovered, e.g. by rendering in the browser a boundary the server failed to render. */
export function reportRecoverableError(error: unknown, info: ErrorInfo): void {
  const serverDigest = (error as { digest?: unknown } | null)?.digest;
  const digest = typeof serverDigest === 'string' ? serverDigest : clientDigest(error);
  console.warn(`Recovered from an error (digest ${digest})`, error, info.componentStack ?? '');
}

/** An error no boundary caught: React unmounted the tree, so the page is rebuilt from scratch. */
export function showFatalError(error: unknown, info: ErrorInfo): void {
  const digest = clientDigest(error);
  console.error(`Uncaught client error (digest ${digest})`, error, info.componentStack ?? '');
  const container = document.createElement('div');
  document.body.replaceChildren(container);
  createRoot(container).render(<ErrorPage side="client" hostname={window.location.hostname} digest={digest} />);
}
