import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config/config.ts';
import { EVERY_OTEL_VARIABLE, SENTRY_DSN } from '../support/every-variable.ts';

// OpenTelemetry's export as its own environment variables configure it
// (server/config/otel-config.ts): on with an OTLP endpoint, every value the host decides on
// checked at boot. Over HTTP, against a receiver: tests/observe/otlp-export.test.ts.

describe('OTEL_* configuration', () => {
  it('is off, and nothing of the SDK loads, without an OTLP endpoint, when disabled, or with both exporters none', () => {
    expect(loadConfig({}).otel).toBeUndefined();
    expect(loadConfig({ OTEL_SERVICE_NAME: 'shop' }).otel).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }).otel).toBeUndefined();
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none' }).otel,
    ).toBeUndefined();
  });

  it('reads every variable it documents, each signal its own before the general ones', () => {
    expect(loadConfig(EVERY_OTEL_VARIABLE).otel).toEqual({
      serviceName: 'shop-frontend',
      sampler: 'parentbased_traceidratio',
      ratio: 0.1,
      traces: { protocol: 'http/json', scheduleDelayMs: 1000 },
      logs: { protocol: 'http/protobuf', scheduleDelayMs: 500 },
    });
  });

  it("defaults to the specification's: both signals over http/protobuf, parent-based always on", () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }).otel).toEqual({
      serviceName: undefined,
      sampler: 'parentbased_always_on',
      ratio: 1,
      traces: { protocol: 'http/protobuf', scheduleDelayMs: 5000 },
      logs: { protocol: 'http/protobuf', scheduleDelayMs: 1000 },
    });
  });

  it('exports a signal only to an endpoint of its own or the general one, and as its exporter says', () => {
    const tracesOnly = loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://tempo:4318/v1/traces' }).otel;
    expect(tracesOnly).toMatchObject({ traces: { protocol: 'http/protobuf' }, logs: undefined });
    const logsOnly = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }).otel;
    expect(logsOnly).toMatchObject({ traces: undefined, logs: { protocol: 'http/protobuf' } });
  });

  it('takes export beside SENTRY_DSN: both are configured, one sampler for both', () => {
    const both = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', SENTRY_DSN });
    expect(both.otel).toMatchObject({ sampler: 'parentbased_always_on', traces: { protocol: 'http/protobuf' } });
    expect(both.sentry).toMatchObject({ dsn: SENTRY_DSN, tracesSampleRate: undefined });
    // The default spelled out decides nothing; logs alone leave tracing to Sentry's own rate.
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', SENTRY_DSN, SENTRY_TRUST_UPSTREAM_SAMPLING: 'false' }).sentry,
    ).toBeDefined();
    const logsOnly = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_TRACES_EXPORTER: 'none',
      SENTRY_DSN,
      SENTRY_TRACES_SAMPLE_RATE: '0.5',
    });
    expect(logsOnly).toMatchObject({ otel: { traces: undefined }, sentry: { tracesSampleRate: 0.5 } });
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'Invalid OTEL_EXPORTER_OTLP_PROTOCOL="grpc": expected one of http/protobuf, http/json'],
    [{ OTEL_TRACES_SAMPLER: 'jaeger_remote' }, 'Invalid OTEL_TRACES_SAMPLER="jaeger_remote"'],
    [{ OTEL_TRACES_SAMPLER_ARG: '1.5' }, 'Invalid OTEL_TRACES_SAMPLER_ARG="1.5": expected a number from 0 to 1'],
    [{ OTEL_TRACES_EXPORTER: 'zipkin' }, 'Invalid OTEL_TRACES_EXPORTER="zipkin": expected otlp or none'],
    [{ OTEL_LOGS_EXPORTER: 'console' }, 'Invalid OTEL_LOGS_EXPORTER="console": expected otlp or none'],
    [{ OTEL_EXPORTER_OTLP_LOGS_PROTOCOL: 'grpc' }, 'Invalid OTEL_EXPORTER_OTLP_LOGS_PROTOCOL="grpc"'],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
      'Invalid OTEL_EXPORTER_OTLP_ENDPOINT="collector:4318": expected an http:// or https:// URL',
    ],
    [
      { SENTRY_DSN, SENTRY_TRACES_SAMPLE_RATE: '0.5' },
      'Invalid SENTRY_TRACES_SAMPLE_RATE="0.5": expected unset beside the export of traces: OTEL_TRACES_SAMPLER samples the spans both receive',
    ],
    [{ SENTRY_DSN, SENTRY_TRUST_UPSTREAM_SAMPLING: 'true' }, 'Invalid SENTRY_TRUST_UPSTREAM_SAMPLING="true"'],
  ])('refuses %o at boot, naming the variable and the value', (env, message) => {
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', ...env })).toThrow(message);
  });
});
