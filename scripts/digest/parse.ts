// One log line → one occurrence of a failure, or nothing. An occurrence is a line that carries
// both `digest` and `error`: the failure line. The access line of the same request also
// carries the digest but no error, so it is never counted twice.

export type Side = 'server' | 'client' | 'process';

/** The server's serializeError shape (server/errors/serialize-error.ts), read defensively. */
export interface LoggedError {
  type: string;
  message: string;
  stack?: string;
  code?: string;
  cause?: LoggedError;
}

export interface Occurrence {
  digest: string;
  /** Epoch milliseconds; undefined when the line's time is missing or unreadable. */
  time: number | undefined;
  side: Side;
  release?: string;
  reqId?: string;
  method?: string;
  path?: string;
  status?: number;
  route?: string;
  /** Process faults: uncaughtException…; browser reports: caught, uncaught, recoverable. */
  kind?: string;
  error: LoggedError;
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
  const { digest, error } = line;
  if (typeof digest !== 'string' || !isObject(error)) return undefined;
  return {
    digest,
    time: timeOf(line.time),
    side: line.side === 'client' ? 'client' : typeof line.kind === 'string' ? 'process' : 'server',
    release: text(line.release),
    reqId: requestIdOf(line),
    method: text(line.method),
    path: text(line.path),
    status: typeof line.status === 'number' ? line.status : undefined,
    route: text(line.route),
    kind: text(line.kind),
    error: loggedError(error, 0),
  };
}

function loggedError(value: JsonObject, depth: number): LoggedError {
  const error: LoggedError = { type: text(value.type) ?? 'Error', message: text(value.message) ?? '' };
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
