// Loaded with `node --import` before the app, so Sentry's diagnostics-channel instrumentation
// is in place before express and http load. Without SENTRY_DSN nothing of Sentry is loaded.
import { loadConfig, type Config } from './config.ts';
import { pathOf } from './url-path.ts';

/** Request headers worth having on an event; everything else (cookies, auth, tokens) stays. */
const REQUEST_HEADERS_SENT = ['user-agent', 'accept', 'accept-language', 'content-type', 'referer', 'x-request-id'];

const OWN_FAULT_HANDLING = new Set(['OnUncaughtException', 'OnUnhandledRejection']);

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
  Sentry.init({
    dsn: sentry.dsn,
    release: config.release,
    environment: sentry.environment,
    // Undefined keeps Sentry in propagation-only mode: trace ids flow, no spans are sent.
    tracesSampler:
      sentry.tracesSampleRate === undefined
        ? undefined
        : ({ name, normalizedRequest, inheritOrSampleWith }) =>
            UNTRACED.test(pathOf(normalizedRequest?.url ?? name)) ? 0 : inheritOrSampleWith(sentry.tracesSampleRate!),
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
    integrations: (defaults) => [
      ...defaults.filter((integration) => !OWN_FAULT_HANDLING.has(integration.name)),
      Sentry.expressIntegration({ shouldHandleError: false }),
    ],
  });
}
