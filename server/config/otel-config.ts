// OpenTelemetry's export of traces over OTLP (server/telemetry/otel.ts, docs/operating.md
// "Traces"), configured by OpenTelemetry's own environment variables
// (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/): on when
// an OTLP endpoint is set, off when OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. The
// exporter reads the endpoint, headers and timeouts itself; what the host decides is read here,
// once, and refused at boot when it is not a value the specification allows.
import { ConfigError, integer, oneOf, rate, type Env } from './config-values.ts';

export type OtlpProtocol = 'http/protobuf' | 'http/json';
/** The specification's samplers, less the vendor ones (jaeger_remote, xray). */
export type SamplerName =
  'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';

export interface OtelConfig {
  /** OTEL_SERVICE_NAME (the exporter's resource reads OTEL_RESOURCE_ATTRIBUTES beside it). */
  readonly serviceName: string | undefined;
  readonly protocol: OtlpProtocol;
  readonly sampler: SamplerName;
  /** A ratio sampler's probability, 0 to 1 (OTEL_TRACES_SAMPLER_ARG; the specification's default is 1). */
  readonly ratio: number;
  /** Whether the log lines go too (OTEL_LOGS_EXPORTER: otlp, the default, or none). */
  readonly logs: boolean;
  /** How long spans wait in their batch before they are sent (OTEL_BSP_SCHEDULE_DELAY, which OpenTelemetry JS 3 no longer reads itself). */
  readonly scheduleDelayMs: number;
}

/** The specification's default batch delay. */
export const DEFAULT_BSP_SCHEDULE_DELAY_MS = 5_000;

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
 * Undefined when nothing is to be exported: then nothing of OpenTelemetry's SDK is loaded. Refused
 * beside SENTRY_DSN for now: each sets up a tracer provider of its own, and two would each see
 * half the spans (docs/operating.md, "Traces").
 */
export function otelConfig(env: Env): OtelConfig | undefined {
  const otel = exportConfig(env);
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT || '';
  if (otel !== undefined && env.SENTRY_DSN)
    throw new ConfigError('OTEL_EXPORTER_OTLP_ENDPOINT', endpoint, 'unset while SENTRY_DSN is set: export traces to one of them');
  return otel;
}

function exportConfig(env: Env): OtelConfig | undefined {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint || env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() || 'otlp';
  if (exporter === 'none') return undefined;
  if (exporter !== 'otlp') throw new ConfigError('OTEL_TRACES_EXPORTER', env.OTEL_TRACES_EXPORTER!, 'otlp or none');
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT']) {
    const raw = env[name];
    if (raw && !/^https?:\/\/[^/]/.test(raw)) throw new ConfigError(name, raw, 'an http:// or https:// URL');
  }
  // The traces-only variable before the general one, as the exporter reads them.
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL
    ? oneOf(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', PROTOCOLS, 'http/protobuf')
    : oneOf(env, 'OTEL_EXPORTER_OTLP_PROTOCOL', PROTOCOLS, 'http/protobuf');
  return Object.freeze({
    serviceName: env.OTEL_SERVICE_NAME || undefined,
    protocol,
    sampler: oneOf(env, 'OTEL_TRACES_SAMPLER', SAMPLERS, 'parentbased_always_on'),
    ratio: rate(env, 'OTEL_TRACES_SAMPLER_ARG') ?? 1,
    logs: oneOf(env, 'OTEL_LOGS_EXPORTER', ['otlp', 'none'], 'otlp') === 'otlp',
    scheduleDelayMs: integer(env, 'OTEL_BSP_SCHEDULE_DELAY', DEFAULT_BSP_SCHEDULE_DELAY_MS, 1, 600_000),
  });
}
