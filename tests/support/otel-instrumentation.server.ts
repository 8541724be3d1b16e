// What a team puts in its app's instrumentation.server.ts to feed an OpenTelemetry exporter
// (docs/operating.md, "The failure hook"): one OpenTelemetry log record per failure, through the
// logs API; the SDK the team sets up at start-up batches the records and exports them (OTLP).
// tests/failures/failure-hook-otel.test.ts passes it to the host (as the built app's hook would be)
// and runs it against a recording provider.
import type { OnFailure } from '../../shared/host.ts';
import { logs, SeverityNumber, type LogAttributes } from '@opentelemetry/api-logs';

const otel = logs.getLogger('react-ssr-host');

export const onFailure: OnFailure = ({ digest, status, route, kind, reqId, error, trace }) => {
  const thrown = error instanceof Error ? error : undefined;
  const attributes: LogAttributes = {
    'app.failure.digest': digest,
    'app.failure.kind': kind,
    'http.route': route,
    // OpenTelemetry's semantic conventions for exceptions and HTTP.
    'exception.type': thrown?.name ?? typeof error,
    'exception.message': thrown?.message ?? String(error),
    'exception.stacktrace': thrown?.stack ?? '',
  };
  if (status !== undefined) attributes['http.response.status_code'] = status;
  if (reqId !== undefined) attributes['app.request_id'] = reqId;
  if (trace !== undefined) Object.assign(attributes, trace);
  otel.emit({ severityNumber: SeverityNumber.ERROR, severityText: 'ERROR', body: `failure ${digest}`, attributes });
};
