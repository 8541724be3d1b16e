import { dsn, flag, integer, rate, ConfigError, type Env } from './config-values.ts';

// Sentry's settings (docs/sentry.md), read from SENTRY_* once at boot with the rest of the
// configuration (./config.ts): none without SENTRY_DSN.

/** Long enough for a healthy Sentry ingest, short enough not to pile up sockets when it is not. */
export const DEFAULT_TUNNEL_TIMEOUT_MS = 10_000;

export interface SentryConfig {
  readonly dsn: string;
  readonly environment: string;
  /** Undefined: trace ids still propagate (sentry-trace/baggage), but no spans are sent. */
  readonly tracesSampleRate: number | undefined;
  /**
   * Whether an incoming sentry-trace/baggage sampling decision is followed. Off: this server's
   * own sampler decides, so a client cannot force its requests to be traced.
   */
  readonly trustUpstreamSampling: boolean;
  /** Share of error events sent (Sentry's `sampleRate`); 1 sends every 5xx. */
  readonly errorSampleRate: number;
  /** Same-origin path the browser SDK posts envelopes to. */
  readonly tunnelPath: string;
  /** DSNs the tunnel forwards for: the configured one plus SENTRY_TUNNEL_ALLOWED_DSNS. */
  readonly allowedDsns: readonly string[];
  /** How long the tunnel waits for Sentry before answering 504. */
  readonly tunnelTimeoutMs: number;
}

export function sentry(env: Env, nodeEnv: string): SentryConfig | undefined {
  if (!env.SENTRY_DSN) return undefined;
  const primary = dsn('SENTRY_DSN', env.SENTRY_DSN);
  const extra = (env.SENTRY_TUNNEL_ALLOWED_DSNS ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const tunnelPath = env.SENTRY_TUNNEL_PATH || '/monitoring';
  if (!/^\/[\w-]+(\/[\w-]+)*$/.test(tunnelPath)) throw new ConfigError('SENTRY_TUNNEL_PATH', tunnelPath, 'a path such as /monitoring');
  return {
    dsn: primary,
    environment: env.SENTRY_ENVIRONMENT || nodeEnv,
    tracesSampleRate: rate(env, 'SENTRY_TRACES_SAMPLE_RATE'),
    trustUpstreamSampling: flag(env, 'SENTRY_TRUST_UPSTREAM_SAMPLING'),
    errorSampleRate: rate(env, 'SENTRY_ERROR_SAMPLE_RATE') ?? 1,
    tunnelPath,
    allowedDsns: [primary, ...extra.map((item) => dsn('SENTRY_TUNNEL_ALLOWED_DSNS', item))],
    tunnelTimeoutMs: integer(env, 'SENTRY_TUNNEL_TIMEOUT_MS', DEFAULT_TUNNEL_TIMEOUT_MS, 100, 60_000),
  };
}
