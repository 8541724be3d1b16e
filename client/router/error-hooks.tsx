import type { ErrorInfo } from 'react';
import { createRoot } from 'react-dom/client';
import { clientDigest } from '../../shared/client-digest.ts';
import { serverDigestOf } from '../../shared/digest-proof.ts';
import { ErrorPage } from '../../shared/ErrorPage.tsx';
import { failureOf } from '../../shared/host-boundary.tsx';
import { CLIENT_ERRORS_PATH, RUNTIME_GLOBAL } from '../../shared/runtime.ts';

// React 19's root error hooks. Each failure is logged to the console once with its digest and
// reported once: to Sentry when it is configured (./sentry.ts wraps these hooks), else to
// the server's own endpoint so the operator's log holds it too. A server failure a route's
// boundary shows (shared/host-boundary.tsx) was recorded and reported by the server already.

/** The server caps reports at 16 KiB; stay well inside it. */
const MAX_STACK_CHARS = 8_000;

export type Kind = 'caught' | 'uncaught' | 'recoverable';
export type Report = (kind: Kind, error: unknown, digest: string) => void;
export type RootErrorHook = (error: unknown, info: ErrorInfo) => void;

/** The digest a user sees for this error: the server's for a recovered server error. */
export function digestOf(error: unknown): string {
  return serverDigestOf(error)?.digest ?? clientDigest(error);
}

/**
 * The page's trace as the server named it: in its head (server/render/document-head.ts), or for a
 * page prerendered at build, in its answer's Server-Timing (server/pages/prerendered-pages.ts).
 */
function pageTraceparent(): string | undefined {
  const written = window[RUNTIME_GLOBAL]?.trace?.traceparent;
  if (written) return written;
  // serverTiming is a secure context's only, and missing in older browsers: a report goes without it.
  try {
    const [navigation] = performance.getEntriesByType('navigation') as Partial<PerformanceNavigationTiming>[];
    return navigation?.serverTiming?.find((entry) => entry.name === 'traceparent')?.description;
  } catch {
    return undefined;
  }
}

export const reportToServer: Report = (kind, error, digest) => {
  const err = error instanceof Error ? error : new Error(String(error));
  const body = JSON.stringify({
    kind,
    digest,
    // The server's proof that it wrote this digest into this page (shared/digest-proof.ts).
    proof: serverDigestOf(error)?.proof,
    type: err.name || 'Error',
    message: err.message || '(no message)',
    stack: err.stack ? err.stack.slice(0, MAX_STACK_CHARS) : undefined,
    path: window.location.pathname,
    pageReqId: window[RUNTIME_GLOBAL]?.requestId,
    pageTraceparent: pageTraceparent(),
  });
  // keepalive lets the report leave even if the user navigates away at once.
  void fetch(CLIENT_ERRORS_PATH, { method: 'POST', keepalive: true, headers: { 'Content-Type': 'application/json' }, body }).catch(
    () => {},
  );
};

function showClientErrorPage(digest: string): void {
  const container = document.createElement('div');
  document.body.replaceChildren(container);
  createRoot(container).render(<ErrorPage side="client" hostname={window.location.hostname} digest={digest} />);
}

export function createErrorHooks(report?: Report) {
  return {
    /** An error a boundary caught; the boundary already shows it. */
    onCaughtError(error: unknown, info: ErrorInfo) {
      // A server failure shown in a route boundary: the server logged and reported it already.
      if (!failureOf(error).client) return;
      const digest = digestOf(error);
      console.error(`Client error (digest ${digest})`, error, info.componentStack ?? '');
      report?.('caught', error, digest);
    },
    /** React recovered, e.g. by rendering in the browser a boundary the server failed to render. */
    onRecoverableError(error: unknown, info: ErrorInfo) {
      const digest = digestOf(error);
      console.warn(`Recovered from an error (digest ${digest})`, error, info.componentStack ?? '');
      report?.('recoverable', error, digest);
    },
    /** No boundary caught it: React unmounted the tree, so the error page is built afresh. */
    onUncaughtError(error: unknown, info: ErrorInfo) {
      const digest = digestOf(error);
      console.error(`Uncaught client error (digest ${digest})`, error, info.componentStack ?? '');
      report?.('uncaught', error, digest);
      showClientErrorPage(digest);
    },
  } satisfies Record<string, RootErrorHook>;
}
