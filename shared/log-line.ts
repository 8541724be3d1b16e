// The log-line contract: what the server writes (pino JSON, one object per line) and what the
// operator's digest tool (cli/), the tests and the soak read. Field by field in docs/logs.md,
// "The access line" and "The failure line". Change a name here and every reader follows.

/** pino's numeric levels. 5xx failures are `error`; a browser's report is `warn`. */
export const LEVEL = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;

/** The access line's message: one line per request, written when the response finishes. */
export const ACCESS_COMPLETED = 'request completed';
/** The access line's message when the client left before the response was whole. */
export const ACCESS_ABORTED = 'request aborted';
/** A 5xx failure's one line (server/failures/recorder.ts). */
export const FAILURE_MESSAGE = 'request failed';
/** The error page itself failed while answering a failure: one extra line beside the first. */
export const SECONDARY_FAILURE_MESSAGE = 'the error page failed: sent the static fallback';
/** A fault outside any request, logged once before the process exits. */
export const PROCESS_FAULT_MESSAGE = 'process fault: exiting';
/** The process entry's lines: once listening (with `port`), and the last line before exit. */
export const LISTENING_PREFIX = 'listening on ';
export const STOPPED_MESSAGE = 'stopped';
/** Written once stdout drains after lines were dropped: `dropped` (a count) and `droppedByLevel`. */
export const LOG_DROPS_MESSAGE = 'log lines dropped: stdout was not read';

/** An incoming X-Request-Id is kept only when it is short and plain enough to be a log field. */
/** A frame line of a V8 stack, as the failure line's `error.stack` carries them. */
export const STACK_FRAME = /^\s+at /;

export const REQUEST_ID = /^[\w.:@-]{1,128}$/;

/**
 * The `error` field of a failure line: the thrown value's type, message, capped stack, a string
 * `code` and `detail` when it has them, and its causes (server/failures/serialize-error.ts writes it).
 */
export interface SerializedError {
  type: string;
  message: string;
  stack?: string;
  code?: string;
  /** Per-occurrence detail the digest leaves out (a refused redirect's target, say). */
  detail?: string;
  cause?: SerializedError;
}

/**
 * With tracing on, or a W3C `traceparent` from a proxy TRUST_PROXY trusts, a request's lines
 * carry its trace under OpenTelemetry's names for logs that are not OTLP ("Trace Context in
 * Non-OTLP Log Formats": lower-case hex, flags as two digits), which Loki, Tempo and Grafana link
 * on. The access line carries trace_id and trace_flags only.
 */
export interface TraceContext {
  trace_id: string;
  /** The request's own span; none when the trace came in a `traceparent` and no SDK made one. */
  span_id?: string;
  trace_flags: string;
}

/** W3C trace flags as the lines and `traceparent` write them: two lower-case hex digits (01 sampled). */
export const traceFlagsOf = (flags: number): string => flags.toString(16).padStart(2, '0');

/** Where a line came from: `client` marks a browser's report (server/telemetry/client-errors.ts). */
export type Side = 'server' | 'client';

/** The fields readers rely on; every other field is described in docs/logs.md. */
export interface LogLine {
  level: number;
  time?: number | string;
  msg?: string;
  release?: string;
  /** The process that wrote the line: REPLICA, or the pod's or host's name (server/config/config.ts). */
  replica?: string;
  reqId?: string;
  method?: string;
  path?: string;
  route?: string;
  status?: number;
  digest?: string;
  error?: SerializedError;
  side?: Side;
  /** Browser reports: the page load's request id, whether the proof checked out, a digest named without one. */
  pageReqId?: string;
  verified?: boolean;
  claimedDigest?: string;
  /** Why a claimed digest's proof did not count (server/failures/report-proof.ts). */
  proofStatus?: 'missing' | 'invalid' | 'replayed' | 'full';
  /** Process faults: uncaughtException, unhandledRejection. */
  kind?: string;
  secondaryFailure?: true;
  [field: string]: unknown;
}

export const isAccessLine = (line: { msg?: unknown }): boolean => line.msg === ACCESS_COMPLETED || line.msg === ACCESS_ABORTED;
