// The browser's side of Sentry, loaded (as its own chunk) only when the server's runtime
// configuration carries a DSN, so pages without Sentry never download it.
import * as Sentry from '@sentry/react';
import type { BrowserSentryConfig } from '../../shared/runtime.ts';
import { failureOf } from '../../shared/host-boundary.tsx';
import { createErrorHooks, digestOf } from './error-hooks.tsx';

export function initSentry(config: BrowserSentryConfig) {
  Sentry.init({
    dsn: config.dsn,
    release: config.release,
    environment: config.environment,
    // Same-origin, so ad blockers and CSP connect-src don't drop reports (server/telemetry/tunnel.ts).
    tunnel: config.tunnel,
    tracesSampleRate: config.tracesSampleRate,
    // Reads the server's sentry-trace/baggage meta tags: the page load joins the server's trace.
    integrations: [Sentry.browserTracingIntegration()],
    beforeSend(event, hint) {
      // A server failure shown in a route boundary: the server reported it already.
      if (!failureOf(hint.originalException).client) return null;
      // The digest the user sees on the page, so a screenshot finds the event.
      const digest = digestOf(hint.originalException);
      event.tags = { ...event.tags, digest };
      return event;
    },
  });
  // Sentry captures in reactErrorHandler; our hooks only log and show the page (no second report).
  const hooks = createErrorHooks();
  return {
    onCaughtError: Sentry.reactErrorHandler(hooks.onCaughtError),
    onRecoverableError: Sentry.reactErrorHandler(hooks.onRecoverableError),
    onUncaughtError: Sentry.reactErrorHandler(hooks.onUncaughtError),
  };
}
