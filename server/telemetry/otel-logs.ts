// The log lines exported over OTLP with OpenTelemetry's logs SDK (docs/operating.md, "Traces"),
// beside stdout, where the JSON line keeps its own field names (the operators' contract: the
// digest tool, dashboards, alert rules). Each line becomes one log record: its level a severity,
// its message the body, its fields the semantic conventions' names where they have one
// (https://opentelemetry.io/docs/specs/semconv/http/, .../exceptions/), the host's under
// `react_ssr_host.`, and its trace and span ids the record's own.
import { ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { SeverityNumber, type LogAttributes, type LogRecord } from '@opentelemetry/api-logs';
import type { Resource } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider, type LogRecordExporter } from '@opentelemetry/sdk-logs';
import type { OtlpProtocol, SignalExport } from '../config/otel-config.ts';

/** pino's levels (https://getpino.io/#/docs/api?id=levels) as OpenTelemetry's severities. */
const SEVERITY: Record<number, [SeverityNumber, string]> = {
  10: [SeverityNumber.TRACE, 'TRACE'],
  20: [SeverityNumber.DEBUG, 'DEBUG'],
  30: [SeverityNumber.INFO, 'INFO'],
  40: [SeverityNumber.WARN, 'WARN'],
  50: [SeverityNumber.ERROR, 'ERROR'],
  60: [SeverityNumber.FATAL, 'FATAL'],
};

/** The line's fields with a semantic-conventions name. */
const CONVENTIONS: Record<string, string> = {
  method: 'http.request.method',
  path: 'url.path',
  status: 'http.response.status_code',
  ip: 'client.address',
  userAgent: 'user_agent.original',
  // The span's name for it too (./otel.ts).
  reqId: 'react_ssr_host.request_id',
};
/** Said by the record itself (time, severity, body, trace) or by the resource (release, replica). */
const NOT_ATTRIBUTES = new Set(['time', 'level', 'msg', 'release', 'replica', 'trace_id', 'span_id', 'trace_flags', 'error']);
const HOST_PREFIX = 'react_ssr_host.';

type Line = Record<string, unknown>;

function attributesOf(line: Line): LogAttributes {
  const attributes: LogAttributes = {};
  for (const [key, value] of Object.entries(line)) {
    if (NOT_ATTRIBUTES.has(key) || value === undefined || value === null) continue;
    const name = CONVENTIONS[key] ?? `${HOST_PREFIX}${key}`;
    attributes[name] = typeof value === 'object' ? JSON.stringify(value) : (value as string | number | boolean);
  }
  const error = line.error as { type?: unknown; message?: unknown; stack?: unknown } | undefined;
  if (error !== undefined && typeof error === 'object') {
    if (typeof error.type === 'string') attributes['exception.type'] = error.type;
    if (typeof error.message === 'string') attributes['exception.message'] = error.message;
    if (typeof error.stack === 'string') attributes['exception.stacktrace'] = error.stack;
  }
  return attributes;
}

/** One JSON line as a log record; the line's trace when it names a span (a failure line with tracing on). */
export function logRecordOf(line: Line): LogRecord {
  const [severityNumber, severityText] = SEVERITY[line.level as number] ?? [SeverityNumber.UNSPECIFIED, String(line.level)];
  const record: LogRecord = {
    timestamp: typeof line.time === 'number' ? line.time : Date.now(),
    severityNumber,
    severityText,
    body: typeof line.msg === 'string' ? line.msg : '',
    attributes: attributesOf(line),
  };
  const { trace_id: traceId, span_id: spanId, trace_flags: flags } = line;
  if (typeof traceId === 'string' && typeof spanId === 'string') {
    const traceFlags = typeof flags === 'string' ? Number.parseInt(flags, 16) : TraceFlags.NONE;
    record.context = trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId, traceFlags, isRemote: true });
  }
  return record;
}

export interface LogExport {
  /** The line as written to stdout (one JSON object and its newline). */
  exportLine(line: string): void;
  shutdown(): Promise<void>;
}

async function exporterOf(protocol: OtlpProtocol): Promise<LogRecordExporter> {
  if (protocol === 'http/json') return new (await import('@opentelemetry/exporter-logs-otlp-http')).OTLPLogExporter();
  return new (await import('@opentelemetry/exporter-logs-otlp-proto')).OTLPLogExporter();
}

export async function startLogExport(logs: SignalExport, resource: Resource): Promise<LogExport> {
  const provider = new LoggerProvider({
    resource,
    processors: [new BatchLogRecordProcessor({ exporter: await exporterOf(logs.protocol), scheduledDelayMillis: logs.scheduleDelayMs })],
  });
  const logger = provider.getLogger('react-ssr-host');
  return {
    exportLine(line) {
      // A line that is not one JSON object (never, from pino) is not exported rather than thrown on a log call.
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        return;
      }
      if (typeof parsed === 'object' && parsed !== null) logger.emit(logRecordOf(parsed as Line));
    },
    shutdown: () => provider.shutdown(),
  };
}
