// What the app gets of Sentry and OTLP export (createApp's `telemetry`): either, both, or neither.
// Beside export, OpenTelemetry owns the trace: one tracer provider, one sampler, and Sentry's
// events and the page's meta name its span (server/instrument.ts, ./otel.ts, ./sentry-spans.ts).
import type { RequestHandler } from 'express';
import type { Config } from '../config/config.ts';
import type { Reporter } from '../failures/recorder.ts';
import type { TraceContext } from '../../shared/log-line.ts';
import type { TraceMeta } from '../../shared/runtime.ts';
import type { OtelTracing } from './otel.ts';

export interface RequestTelemetry {
  report: Reporter;
  /** The trace a page names in its head (shared/runtime.ts). */
  traceMeta: () => TraceMeta | undefined;
  /** The ids on the request's lines, with tracing on. */
  traceContext?: () => TraceContext | undefined;
  /** OpenTelemetry's export (./otel.ts): the request's span, opened before its access line (none on `untraced` paths), */
  requestSpans?: (trustsPeer: (address: string | undefined) => boolean, untraced: ReadonlySet<string>) => RequestHandler;
  /** and the render's: a span for each middleware, loader and action, and one for the document. */
  tracing?: Pick<OtelTracing, 'instrumentations' | 'traceDocument'>;
}

type SentryServer = typeof import('./sentry.ts');

export function requestTelemetry(
  otel: OtelTracing | undefined,
  sentry: SentryServer | undefined,
  config: Config,
): RequestTelemetry | undefined {
  // OpenTelemetry owns tracing when it exports traces, or exports logs without Sentry (its spans
  // then give the lines and records their ids); beside Sentry, logs alone leave tracing to Sentry.
  const tracing = otel !== undefined && (sentry === undefined || config.otel?.traces !== undefined) ? otel : undefined;
  if (tracing === undefined) {
    if (sentry === undefined) return undefined;
    // Trace ids on log lines only with tracing on: without a sample rate Sentry makes no spans.
    const traceContext = config.sentry?.tracesSampleRate === undefined ? undefined : sentry.currentTraceContext;
    return { report: sentry.reportToSentry, traceMeta: () => sentry.traceMetaOf(), traceContext };
  }
  return {
    report:
      sentry === undefined
        ? tracing.report
        : (failure, res) => {
            tracing.report(failure, res);
            // Sentry's event names the active span's trace: the request's, wherever the failure was met.
            tracing.inRequestContext(res, () => sentry.reportToSentry(failure, res));
          },
    traceMeta: sentry === undefined ? tracing.traceMeta : () => sentry.traceMetaOf(tracing.activeSpan()),
    traceContext: tracing.traceContext,
    requestSpans: tracing.requestSpans,
    tracing,
  };
}
