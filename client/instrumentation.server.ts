import type { OnFailure } from '../shared/host.ts';

// The app's failure hook, loaded once at start-up by the host (server/index.ts), as Next.js
// loads `instrumentation`: export `onFailure` and it is called once per recorded failure, after
// its log line, with the digest, status, route, kind of work and request id (shared/failure-event.ts).
// It never delays the answer; a throw, or a promise unsettled after FAILURE_HOOK_TIMEOUT_MS, is
// one warn line. docs/operating.md ("The failure hook") shows one feeding an OpenTelemetry exporter.
//
// The demo reports nowhere else: the log line and Sentry (with SENTRY_DSN) are its reports.
export const onFailure: OnFailure | undefined = undefined;
