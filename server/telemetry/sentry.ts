// The server's side of Sentry, loaded (dynamically, by server/index.ts) only when SENTRY_DSN
// is set; Sentry.init itself runs earlier, in instrument.ts.
import * as Sentry from '@sentry/node';
import type { Span as OpenTelemetrySpan } from '@opentelemetry/api';
import type { Reporter } from '../failures/recorder.ts';
import { traceFlagsOf, type TraceContext } from '../../shared/log-line.ts';
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

/** sentry-trace's `<trace id>-<span id>[-<sampled>]` (https://develop.sentry.dev/sdk/telemetry/traces/#header-sentry-trace). */
const SENTRY_TRACE = /^([0-9a-f]{32})-([0-9a-f]{16})(?:-([01]))?$/;

/**
 * The request span's trace, for the page's <head> so the browser's page load joins it: Sentry's
 * two values, and the same trace as a W3C traceparent (its sampled flag 0 while undecided). With
 * OTLP export, `span` is OpenTelemetry's active span (./otel.ts), which Sentry reads as its own.
 */
export function traceMetaOf(span?: OpenTelemetrySpan): TraceMeta | undefined {
  // Sentry's span type is OpenTelemetry's shape: getTraceData reads its spanContext() (and its
  // root's name for the baggage); tests/observe/otlp-beside-sentry.test.ts checks the meta it makes.
  const data = Sentry.getTraceData(span === undefined ? {} : { span });
  const match = SENTRY_TRACE.exec(data['sentry-trace'] ?? '');
  if (match === null) return undefined;
  const [sentryTrace, traceId, spanId, sampled] = match as unknown as [string, string, string, string | undefined];
  return { traceparent: `00-${traceId}-${spanId}-0${sampled === '1' ? 1 : 0}`, sentryTrace, baggage: data.baggage ?? '' };
}

/**
 * The active span under OpenTelemetry's log field names (shared/log-line.ts), for log lines; none
 * without a span (tracing off: SENTRY_TRACES_SAMPLE_RATE unset). Sentry's span context is
 * OpenTelemetry's: 32 and 16 lower-case hex digits, flags 1 when sampled.
 */
export function currentTraceContext(): TraceContext | undefined {
  const span = Sentry.getActiveSpan();
  if (span === undefined) return undefined;
  const { traceId, spanId, traceFlags } = span.spanContext();
  return { trace_id: traceId, span_id: spanId, trace_flags: traceFlagsOf(traceFlags) };
}

export function closeSentry(): Promise<boolean> {
  return Sentry.close(SENTRY_FLUSH_MS);
}
