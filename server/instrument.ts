// Loaded with `node --import` before the app, so Sentry's diagnostics-channel instrumentation
// is in place before express and http load. Without SENTRY_DSN nothing of Sentry is loaded.
import { loadConfig, type Config } from './config.ts';

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
  Sentry.init({
    dsn: sentry.dsn,
    release: config.release,
    environment: sentry.environment,
    tracesSampleRate: sentry.tracesSampleRate,
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
    // The tunnel relays the browser's own telemetry; tracing it would only add noise.
    ignoreSpans: [new RegExp(`^\\w+ ${sentry.tunnelPath}$`), /^\w+ \/(healthz|readyz)$/],
  });
}
