import { logs, type Logger, type LogRecord } from '@opentelemetry/api-logs';
import request from 'supertest';
import { afterAll, expect, it } from 'vitest';
import { onFailure } from '../support/otel-instrumentation.server.ts';
import { FAILURE_MESSAGE } from '../../shared/log-line.ts';
import { createTestApp, DIAG } from '../support/test-app.ts';

// docs/operating.md's OpenTelemetry example, run: the hook's records reach the provider an
// OpenTelemetry SDK would install (here one that records them instead of exporting).

const records: LogRecord[] = [];
const recording: Logger = { emit: (record) => void records.push(record), enabled: () => true };
logs.setGlobalLoggerProvider({ getLogger: () => recording });
afterAll(() => logs.disable());

it('turns each failure into one OpenTelemetry log record with its digest, kind, route, status and request id', async () => {
  const { app, logs: lines } = createTestApp({}, { onFailure });
  const res = await request(app).get('/_diag/server-error').set(DIAG).expect(500);
  await new Promise((resolve) => setTimeout(resolve, 20));
  const digest = lines.lines.find((line) => line.msg === FAILURE_MESSAGE)!.digest;
  expect(records).toHaveLength(1);
  expect(records[0]).toMatchObject({
    severityText: 'ERROR',
    body: `failure ${digest}`,
    attributes: {
      'app.failure.digest': digest,
      'app.failure.kind': 'render',
      'http.route': 'page:diag/server-error',
      'http.response.status_code': 500,
      'app.request_id': res.headers['x-request-id'],
      'exception.type': 'Error',
    },
  });
});
