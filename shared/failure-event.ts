import type { TraceContext } from './log-line.ts';

// What the app's failure hook gets (client/instrumentation.server.ts, docs/operating.md "The
// failure hook"): one event per recorded failure, after its line is written. Next.js's
// `onRequestError(error, request, context)` is the model: any provider (an OpenTelemetry
// exporter, Datadog, Honeybadger) gets each failure without editing the host.

/**
 * The kind of work that failed: a page's render, a loader, an action (a write's), a resource
 * route's (or another non-page route's) answer, a cached answer's revalidation (once the host
 * revalidates), a browser's failure it reported, or a fault outside any request.
 */
export type FailureWork = 'render' | 'loader' | 'action' | 'resource' | 'revalidation' | 'browser' | 'process';

export interface FailureEvent {
  /** The digest the user sees and the failure line carries. */
  digest: string;
  /** The status answered; undefined for a browser's failure and a process fault. */
  status: number | undefined;
  /** The route label (`page:<id>`, `resource:<id>`…); the page's path for a browser's failure; the fault's kind for a process fault. */
  route: string;
  kind: FailureWork;
  /** The request's id (X-Request-Id); a browser's failure: its page load's; undefined for a process fault. */
  reqId: string | undefined;
  /** What was thrown; a browser's failure: its reported type, message and stack. */
  error: unknown;
  /** With tracing on, or a trusted `traceparent`, the request's trace (shared/log-line.ts). */
  trace?: TraceContext;
  /** The request's method and path, as its lines have them; undefined for a browser's failure and a process fault. */
  method: string | undefined;
  path: string | undefined;
  /** The release and replica on every line (RELEASE, REPLICA), so a sink needs no lookup to group them. */
  release: string;
  replica: string;
  /** When the failure was recorded (ISO 8601, UTC). */
  time: string;
  /**
   * Aborted when the host stops waiting (FAILURE_HOOK_TIMEOUT_MS): pass it to `fetch` and the
   * like, so a stalled sink's connections close with it instead of outliving the hook.
   */
  signal: AbortSignal;
}

/** What the host's recorder knows of a failure; the rest of the event is added as the hook is called (server/failures/failure-hook.ts). */
export type RecordedFailure = Omit<FailureEvent, 'release' | 'replica' | 'time' | 'signal'>;

/** The app's hook. A returned promise is waited for up to FAILURE_HOOK_TIMEOUT_MS, never by the answer. */
export type OnFailure = (event: FailureEvent) => void | Promise<void>;
