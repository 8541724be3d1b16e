import type { SerializedError } from '../shared/log-line.ts';

// One log line → one record about a digest, or nothing. A record is a line that carries both
// a digest and `error`. The access line of the same request also carries the digest but no
// error, so it is never counted twice. Of the records, only failures are occurrences: a
// browser's report of a server digest (verified by the server's proof, or only claimed) and a
// secondary failure of the error page are shown apart (server/telemetry/client-errors.ts, server/failures/recorder.ts).

export type Side = 'server' | 'client' | 'process';

/**
 * failure: an occurrence (a server failure, a process fault, or a browser failure with its own
 * `c-` digest); report: a browser report of a server digest with a valid proof; claim: one that
 * names a server digest without a valid proof (`claimedDigest`); secondary: the error page
 * failed while answering the failure.
 */
export type RecordKind = 'failure' | 'report' | 'claim' | 'secondary';

export interface Occurrence {
  digest: string;
  record: RecordKind;
  /** Epoch milliseconds; undefined when the line's time is missing or unreadable. */
  time: number | undefined;
  side: Side;
  release?: string;
  /** The process that wrote it: the line's `replica`, else the pod or service its wrapper names (cli/scan.ts). */
  replica?: string;
  reqId?: string;
  method?: string;
  path?: string;
  status?: number;
  route?: string;
  /** Process faults: uncaughtException…; browser reports: caught, uncaught, recoverable. */
  kind?: string;
  /** A prefetch's failure (server/failures/recorder.ts): no user saw it. */
  prefetch?: true;
  error: SerializedError;
}

/** Deeper than the server ever writes (it caps causes at 5): a guard against odd input only. */
const MAX_CAUSE_DEPTH = 10;

type JsonObject = Record<string, unknown>;

/** undefined when the text is not a JSON object. */
export function parseJson(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function occurrenceOf(line: JsonObject): Occurrence | undefined {
  const { error } = line;
  const digest = typeof line.digest === 'string' ? line.digest : line.side === 'client' ? line.claimedDigest : undefined;
  if (typeof digest !== 'string' || !isObject(error)) return undefined;
  return {
    digest,
    record: recordOf(line),
    time: timeOf(line.time),
    side: line.side === 'client' ? 'client' : typeof line.kind === 'string' ? 'process' : 'server',
    release: text(line.release),
    reqId: requestIdOf(line),
    method: text(line.method),
    path: text(line.path),
    status: typeof line.status === 'number' ? line.status : undefined,
    route: text(line.route),
    kind: text(line.kind),
    ...(line.prefetch === true && { prefetch: true as const }),
    error: loggedError(error, 0),
  };
}

function recordOf(line: JsonObject): RecordKind {
  if (line.secondaryFailure === true) return 'secondary';
  if (line.side !== 'client') return 'failure';
  if (typeof line.digest !== 'string') return 'claim';
  return line.verified === true ? 'report' : 'failure';
}

function loggedError(value: JsonObject, depth: number): SerializedError {
  const error: SerializedError = { type: text(value.type) ?? 'Error', message: text(value.message) ?? '' };
  const stack = text(value.stack);
  const code = text(value.code);
  if (stack !== undefined) error.stack = stack;
  if (code !== undefined) error.code = code;
  if (isObject(value.cause) && depth < MAX_CAUSE_DEPTH) error.cause = loggedError(value.cause, depth + 1);
  return error;
}

/** A browser report's own request id leads only to the report; the page load's leads to the render. */
function requestIdOf(line: JsonObject): string | undefined {
  return text(line.side === 'client' ? (line.pageReqId ?? line.reqId) : line.reqId);
}

/** pino writes epoch ms; an ISO string (pino's isoTime) is accepted too. */
function timeOf(value: unknown): number | undefined {
  const time = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isFinite(time) ? time : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
