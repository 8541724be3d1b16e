// Sentry's copy of the spans, beside OTLP export (docs/operating.md, "Traces"): Sentry 11 has no
// span processor of its own to add to a tracer provider; it takes OpenTelemetry's spans at its
// OTLP endpoint, which `getOtlpTracesEndpoint` derives from the DSN (the project's
// `/api/<id>/integration/otlp/v1/traces/`, its public key in X-Sentry-Auth:
// https://docs.sentry.io/platforms/javascript/guides/express/configuration/integrations/opentelemetry/).
// Loaded by ./span-export.ts only when SENTRY_DSN is set too.
//
// Not OpenTelemetry's OTLPTraceExporter: given headers, it still adds OTEL_EXPORTER_OTLP_HEADERS'
// (the collector's credentials) to them (mergeHeaders in @opentelemetry/otlp-exporter-base's
// configuration/otlp-http-configuration), and would send them to Sentry. The same export
// delegate, configured from the DSN alone, reads no environment.
import { getOtlpTracesEndpoint } from '@sentry/node';
import { getSharedConfigurationDefaults, OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { createOtlpHttpExportDelegate, httpAgentFactoryFromOptions } from '@opentelemetry/otlp-exporter-base/node-http';
import { JsonTraceSerializer, ProtobufTraceSerializer, TraceExporterMetricsHelper } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import type { OtlpProtocol } from '../config/otel-config.ts';

/** The exporter's own name for its metrics (OpenTelemetry's semantic conventions: otel.component.type). */
const COMPONENT_TYPE = 'otlp_http_span_exporter';

/** Spans to Sentry's OTLP endpoint for `dsn`, in the protocol the collector's spans go in. */
export function sentrySpanExporter(dsn: string, protocol: OtlpProtocol): SpanExporter {
  const endpoint = getOtlpTracesEndpoint(dsn);
  // server/config/sentry-config.ts validated the DSN at boot.
  if (endpoint === undefined) throw new Error('SENTRY_DSN is not a DSN');
  const json = protocol === 'http/json';
  const headers = { ...endpoint.headers, 'Content-Type': json ? 'application/json' : 'application/x-protobuf' };
  const delegate = createOtlpHttpExportDelegate(
    {
      ...getSharedConfigurationDefaults(),
      url: endpoint.url,
      headers: () => Promise.resolve(headers),
      agentFactory: httpAgentFactoryFromOptions({ keepAlive: true }),
    },
    json ? JsonTraceSerializer : ProtobufTraceSerializer,
    COMPONENT_TYPE,
    TraceExporterMetricsHelper,
    undefined,
  );
  return new OTLPExporterBase<ReadableSpan[]>(delegate);
}
