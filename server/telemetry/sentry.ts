// The server's side of Sentry, loaded (dynamically, by server/index.ts) only when SENTRY_DSN
// is set; Sentry.init itself runs earlier, in instrument.ts.
import * as Sentry from '@sentry/node';
import type { Reporter } from '../failures/recorder.ts';
import type { TraceMeta } from '../../shared/runtime.ts';

/** Sentry's own default for flushing at exit (docs/reference-facts.md): long enough, bounded. */
export const SENTRY_FLUSH_MS = 2_000;

/** One event per 5xx, tagged so the digest on the user's screen finds it. */
export const reportToSentry: Reporter = (failure) => {
  Sentry.withScope((scope) => {
    scope.setTag('digest', failure.digest);
    scope.setTag('request_id', failure.reqId);
    scope.setTag('route', failure.route);
    scope.setTag('status', String(failure.status));
    scope.setContext('request', { method: failure.method, path: failure.path, route: failure.route });
    scope.setFingerprint([failure.digest]);
    Sentry.captureException(failure.error);
  });
};

/** A process fault, captured before the process exits. */
export function reportFault(error: unknown, digest: string): void {
  Sentry.withScope((scope) => {
    scope.setTag('digest', digest);
    scope.setLevel('fatal');
    Sentry.captureException(error);
  });
}

/** The request span's trace, for the page's <head> so the browser's page load joins it. */
export function currentTraceMeta(): TraceMeta | undefined {
  const data = Sentry.getTraceData();
  const sentryTrace = data['sentry-trace'];
  return sentryTrace ? { sentryTrace, baggage: data.baggage ?? '' } : undefined;
}

export function closeSentry(): Promise<boolean> {
  return Sentry.close(SENTRY_FLUSH_MS);
}
