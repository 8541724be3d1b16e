// Where the spans go and which are kept (./otel.ts): OpenTelemetry's sampler as OTEL_TRACES_SAMPLER
// names it, and a batch for each sink, the collector's and with SENTRY_DSN Sentry's.
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import type { OtelConfig, OtlpProtocol, SignalExport } from '../config/otel-config.ts';

export function samplerOf({ sampler, ratio }: OtelConfig): Sampler {
  const root = { always_on: new AlwaysOnSampler(), always_off: new AlwaysOffSampler(), traceidratio: new TraceIdRatioBasedSampler(ratio) };
  switch (sampler) {
    case 'always_on':
    case 'always_off':
    case 'traceidratio':
      return root[sampler];
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: root.always_on });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: root.always_off });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: root.traceidratio });
  }
}

/** OTLP over HTTP as OTEL_EXPORTER_OTLP_PROTOCOL says; the exporter reads the endpoint, headers and timeout from the environment. */
async function exporterOf(protocol: OtlpProtocol): Promise<SpanExporter> {
  if (protocol === 'http/json') return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();
  return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
}

/** A batch for the collector, and with Sentry a batch of its own for Sentry: one sink slow or down never holds the other's. */
export async function processorsOf(
  { protocol, scheduleDelayMs }: SignalExport,
  sentryDsn: string | undefined,
): Promise<BatchSpanProcessor[]> {
  const exporters = [await exporterOf(protocol)];
  if (sentryDsn !== undefined) exporters.push((await import('./sentry-spans.ts')).sentrySpanExporter(sentryDsn, protocol));
  return exporters.map((exporter) => new BatchSpanProcessor({ exporter, scheduledDelayMillis: scheduleDelayMs }));
}
