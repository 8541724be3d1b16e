// OpenTelemetry's export of traces over OTLP (server/telemetry/otel.ts, docs/operating.md
// "Traces"), configured by OpenTelemetry's own environment variables
// (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/): on when
// an OTLP endpoint is set, off when OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. The
// exporter reads the endpoint, headers and timeouts itself; what the host decides is read here,
// once, and refused at boot when it is not a value the specification allows.
import { ConfigError, flag, integer, oneOf, rate, type Env } from './config-values.ts';

export type OtlpProtocol = 'http/protobuf' | 'http/json';
/** The specification's samplers, less the vendor ones (jaeger_remote, xray). */
export type SamplerName =
  'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';

/** One signal's export: where its batches go over which protocol, how often. */
export interface SignalExport {
  readonly protocol: OtlpProtocol;
  /** How long a record waits in its batch (OTEL_BSP_SCHEDULE_DELAY, OTEL_BLRP_SCHEDULE_DELAY: OpenTelemetry JS 3 no longer reads them itself). */
  readonly scheduleDelayMs: number;
}

export interface OtelConfig {
  /** OTEL_SERVICE_NAME (the exporter's resource reads OTEL_RESOURCE_ATTRIBUTES beside it). */
  readonly serviceName: string | undefined;
  readonly sampler: SamplerName;
  /** A ratio sampler's probability, 0 to 1 (OTEL_TRACES_SAMPLER_ARG; the specification's default is 1). */
  readonly ratio: number;
  /** Spans, with a traces endpoint and OTEL_TRACES_EXPORTER not none; else spans are made, not recorded or sent. */
  readonly traces: SignalExport | undefined;
  /** Each log line as a log record, with a logs endpoint and OTEL_LOGS_EXPORTER not none. */
  readonly logs: SignalExport | undefined;
}

/** The specification's default batch delays: spans, log records. */
export const DEFAULT_BSP_SCHEDULE_DELAY_MS = 5_000;
export const DEFAULT_BLRP_SCHEDULE_DELAY_MS = 1_000;

const SAMPLERS: readonly SamplerName[] = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];
/** gRPC is the third protocol the specification names: its exporter is not installed. */
const PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json'];

/**
 * Undefined when nothing is to be exported: then nothing of OpenTelemetry's SDK is loaded. Beside
 * SENTRY_DSN, OpenTelemetry owns tracing and sends Sentry the same spans (server/telemetry/otel.ts):
 * one sampler decides for both, so Sentry's own trace sampling is refused rather than ignored
 * (docs/operating.md, "Traces").
 */
export function otelConfig(env: Env): OtelConfig | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_LOGS_ENDPOINT']) {
    const raw = env[name];
    if (raw && !/^https?:\/\/[^/]/.test(raw)) throw new ConfigError(name, raw, 'an http:// or https:// URL');
  }
  const traces = signal(
    env,
    'TRACES',
    [env.OTEL_TRACES_EXPORTER, env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL],
    () => integer(env, 'OTEL_BSP_SCHEDULE_DELAY', DEFAULT_BSP_SCHEDULE_DELAY_MS, 1, 600_000),
  );
  const logs = signal(
    env,
    'LOGS',
    [env.OTEL_LOGS_EXPORTER, env.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT, env.OTEL_EXPORTER_OTLP_LOGS_PROTOCOL],
    () => integer(env, 'OTEL_BLRP_SCHEDULE_DELAY', DEFAULT_BLRP_SCHEDULE_DELAY_MS, 1, 600_000),
  );
  if (traces === undefined && logs === undefined) return undefined;
  // Logs alone leave tracing to Sentry, as without export.
  if (env.SENTRY_DSN && traces !== undefined) {
    const refused = 'unset beside the export of traces: OTEL_TRACES_SAMPLER samples the spans both receive';
    const sampleRate = env.SENTRY_TRACES_SAMPLE_RATE;
    if (sampleRate) throw new ConfigError('SENTRY_TRACES_SAMPLE_RATE', sampleRate, refused);
    // Its default, spelled out (false), decides nothing either way.
    if (flag(env, 'SENTRY_TRUST_UPSTREAM_SAMPLING')) throw new ConfigError('SENTRY_TRUST_UPSTREAM_SAMPLING', 'true', `false or ${refused}`);
  }
  return Object.freeze({
    serviceName: env.OTEL_SERVICE_NAME || undefined,
    sampler: oneOf(env, 'OTEL_TRACES_SAMPLER', SAMPLERS, 'parentbased_always_on'),
    ratio: rate(env, 'OTEL_TRACES_SAMPLER_ARG') ?? 1,
    traces,
    logs,
  });
}

/**
 * One signal's export: on with its own endpoint or the general one, unless its exporter is none;
 * its protocol its own variable's, else the general one's (as OpenTelemetry's exporters read them).
 */
function signal(
  env: Env,
  name: 'TRACES' | 'LOGS',
  [exporter, ownEndpoint, ownProtocol]: (string | undefined)[],
  delay: () => number,
): SignalExport | undefined {
  const chosen = exporter?.trim().toLowerCase() || 'otlp';
  if (chosen === 'none') return undefined;
  if (chosen !== 'otlp') throw new ConfigError(`OTEL_${name}_EXPORTER`, exporter!, 'otlp or none');
  if (!ownEndpoint && !env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  const protocol = ownProtocol
    ? oneOf(env, `OTEL_EXPORTER_OTLP_${name}_PROTOCOL`, PROTOCOLS, 'http/protobuf')
    : oneOf(env, 'OTEL_EXPORTER_OTLP_PROTOCOL', PROTOCOLS, 'http/protobuf');
  return Object.freeze({ protocol, scheduleDelayMs: delay() });
}
