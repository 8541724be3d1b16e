import type { ErrorInfo } from 'react';
import { createRoot } from 'react-dom/client';
import { clientDigest } from '../shared/client-digest.ts';
import { ErrorPage } from '../shared/ErrorPage.tsx';
import { CLIENT_ERRORS_PATH, RUNTIME_GLOBAL } from '../shared/runtime.ts';

// React 19's root error hooks. Each failure is logged to the console once, with its digest,
// and reported to the server so the operator's log holds it too.

/** The server caps reports at 16 KiB; stay well inside it. */
const MAX_STACK_CHARS = 8_000;

type Kind = 'caught' | 'uncaught' | 'recoverable';

function send(kind: Kind, error: unknown, digest: string): void {
  const err = error instanceof Error ? error : new Error(String(error));
  const body = JSON.stringify({
    kind,
    digest,
    type: err.name || 'Error',
    message: err.message || '(no message)',
    stack: err.stack ? err.stack.slice(0, MAX_STACK_CHARS) : undefined,
    path: window.location.pathname,
    pageReqId: window[RUNTIME_GLOBAL]?.requestId,
  });
  // keepalive lets the report leave even if the user navigates away at once.
  void fetch(CLIENT_ERRORS_PATH, { method: 'POST', keepalive: true, headers: { 'Content-Type': 'application/json' }, body }).catch(
    () => {},
  );
}

/** An error the root boundary caught; the boundary already shows the client error page. */
export function reportCaughtError(error: unknown, info: ErrorInfo): void {
  const digest = clientDigest(error);
  console.error(`Client error (digest ${digest})`, error, info.componentStack ?? '');
  send('caught', error, digest);
}

/** React recovered, e.g. by rendering in the browser a boundary the server failed to render. */
export function reportRecoverableError(error: unknown, info: ErrorInfo): void {
  const serverDigest = (error as { digest?: unknown } | null)?.digest;
  const digest = typeof serverDigest === 'string' ? serverDigest : clientDigest(error);
  console.warn(`Recovered from an error (digest ${digest})`, error, info.componentStack ?? '');
  send('recoverable', error, digest);
}

/** An error no boundary caught: React unmounted the tree, so the page is rebuilt from scratch. */
export function showFatalError(error: unknown, info: ErrorInfo): void {
  const digest = clientDigest(error);
  console.error(`Uncaught client error (digest ${digest})`, error, info.componentStack ?? '');
  send('uncaught', error, digest);
  const container = document.createElement('div');
  document.body.replaceChildren(container);
  createRoot(container).render(<ErrorPage side="client" hostname={window.location.hostname} digest={digest} />);
}
