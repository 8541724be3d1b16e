// Loaded with `node --import` before the app, so Sentry's diagnostics-channel instrumentation
// is in place before express and http load. Without SENTRY_DSN nothing of Sentry is loaded.
import { loadConfig, type Config } from './config/config.ts';
import { pathOf } from './observe/url-path.ts';

/** Request headers worth having on an event; everything else (cookies, auth, tokens) stays. */
const REQUEST_HEADERS_SENT = ['user-agent', 'accept', 'accept-language', 'content-type', 'referer', 'x-request-id'];

/**
 * Default integrations left out: process faults are ours (server/index.ts); Sentry's handlers
 * would capture them untagged first. Dedupe drops an event whose exception and stack equal the
 * previous one's, so back-to-back occurrences of one failure would be counted once; every 5xx
 * is its own occurrence, with its own request id, and is sent.
 */
const LEFT_OUT = new Set(['OnUncaughtException', 'OnUnhandledRejection', 'Dedupe']);

function configOrUndefined(): Config | undefined {
  try {
    return loadConfig(process.env);
  } catch {
    return undefined; // server/index.ts reports the bad value and exits 1
  }
}

const config = configOrUndefined();
if (config?.sentry) {
  const Sentry = await import('@sentry/node');
  const { sentry } = config;
  // The tunnel relays the browser's own telemetry and health checks are noise: never traced.
  // Decided when the request's root span starts, so none of its child spans are sent either.
  const UNTRACED = new RegExp(`^(${sentry.tunnelPath}|/healthz|/readyz)$`);
  type SamplingContext = { name: string; normalizedRequest?: { url?: string }; inheritOrSampleWith: (rate: number) => number };
  /**
   * An incoming sentry-trace header's sampled flag (and baggage's sample_rand) is whatever the
   * client wrote: followed, any client could have its requests traced at will. By default the
   * decision is this server's own coin, returned as a boolean so no incoming value takes part;
   * SENTRY_TRUST_UPSTREAM_SAMPLING=true follows an upstream that is yours.
   */
  function createSampler(settings: NonNullable<Config['sentry']>) {
    const rate = settings.tracesSampleRate ?? 0;
    return ({ name, normalizedRequest, inheritOrSampleWith }: SamplingContext): number | boolean => {
      if (UNTRACED.test(pathOf(normalizedRequest?.url ?? name))) return false;
      return settings.trustUpstreamSampling ? inheritOrSampleWith(rate) : Math.random() < rate;
    };
  }
  Sentry.init({
    dsn: sentry.dsn,
    release: config.release,
    environment: sentry.environment,
    // Undefined keeps Sentry in propagation-only mode: trace ids flow, no spans are sent.
    tracesSampler: sentry.tracesSampleRate === undefined ? undefined : createSampler(sentry),
    // Errors: every 5xx unless the operator samples them (SENTRY_ERROR_SAMPLE_RATE).
    sampleRate: sentry.errorSampleRate,
    // Nothing personal leaves the server: no user, cookies, bodies, query strings or credentials.
    dataCollection: {
      userInfo: false,
      cookies: false,
      httpHeaders: { request: { allow: REQUEST_HEADERS_SENT }, response: false },
      httpBodies: [],
      urlQueryParams: false,
    },
    // The error pipeline captures each 5xx itself, tagged with its digest, render errors
    // included (which Express never sees); the integration would capture some twice. Process
    // faults too are ours (server/index.ts): Sentry's handlers would capture them untagged
    // first, and its dedupe would then drop ours.
    // Beside the export of traces, OpenTelemetry owns tracing (server/telemetry/otel.ts sends Sentry its
    // spans): Sentry's own stays off, and its events name the active OpenTelemetry span's trace
    // (https://docs.sentry.io/platforms/javascript/guides/express/configuration/integrations/opentelemetry/).
    integrations: (defaults) => [
      ...defaults.filter((integration) => !LEFT_OUT.has(integration.name)),
      Sentry.expressIntegration({ shouldHandleError: false }),
      ...(config.otel?.traces ? [Sentry.openTelemetryIntegration()] : []),
    ],
  });
}
