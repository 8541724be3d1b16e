import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { ASSETS_ROUTE, HEALTH_PATHS, routeOf } from './route-label.ts';
import type { RefusalSummary } from './refusal-summary.ts';
import { requestPath } from './url-path.ts';
import { parseTraceparent } from './trace-parent.ts';
import { cut } from './log-bound.ts';
import { LINE_LEVEL } from './log-levels.ts';
import { ACCESS_ABORTED, ACCESS_COMPLETED, REQUEST_ID, type TraceContext } from '../../shared/log-line.ts';

/**
 * The one place a request id is minted: by the access line for what reaches Express, and by
 * server/edge/ for what the parser or the per-connection bound answers itself.
 */
export function newRequestId(): string {
  return randomUUID();
}

// The access line: one per request, written when the response finishes or the client leaves.
// Its fields are a contract, documented field by field in docs/logs.md ("The access line"):
// small on purpose (about 300 bytes), every field bounded whatever the client sends, no
// header unless an operator allow-lists it with LOG_REQUEST_HEADERS.

/** The documented fields besides pino's own `level`, `time`, `release` and `msg`. */
export interface AccessLine {
  reqId: string;
  method: string;
  path: string;
  route: string;
  status: number;
  durationMs: number;
  bytes: number;
  ip: string | undefined;
  userAgent?: string;
  /** The digest of the failure this response carried (its failure line has the same one). */
  digest?: string;
  /** A 4xx: why it was refused (the error's message). 4xx get no line of their own. */
  reason?: string;
  /** Only the LOG_REQUEST_HEADERS allow-list, each value cut, credentials redacted. */
  headers?: Record<string, string>;
  /**
   * With tracing on: the request's trace, to jump from the line to it. Not its span_id (29 bytes
   * on every line): the trace holds the request's server span, and the failure line has it.
   */
  trace_id?: string;
  trace_flags?: string;
  /** The last line of a connection dropped past its pipelining bound: bytes never parsed (server/edge/connections.ts). */
  unparsedBytes?: number;
}

/** Caps, in characters, on what a client controls; a cut value ends with "…". */
export const MAX_PATH_CHARS = 1024;
export const MAX_USER_AGENT_CHARS = 256;
export const MAX_HEADER_VALUE_CHARS = 256;
export const MAX_ROUTE_CHARS = 128;
export const MAX_REASON_CHARS = 200;
/** Credentials are never written, even when allow-listed: their presence is, as "[redacted]". */
export const REDACTED_HEADERS: ReadonlySet<string> = new Set(['cookie', 'authorization', 'proxy-authorization', 'x-diagnostics-token']);
const REDACTED = '[redacted]';

/** Built assets: a page load fetches several; logged at debug when served. */
const QUIET_ROUTES: ReadonlySet<string> = new Set([ASSETS_ROUTE]);

// Per-response state for the line, behind symbols (as pino-http keeps its own).
const STARTED = Symbol('accessStarted');
const BYTES_BEFORE = Symbol('accessBytesBefore');
type Timed = Response & { [STARTED]: number; [BYTES_BEFORE]: number };

/** Bytes written to the connection for this response, headers included (nginx's $bytes_sent). */
function bytesSent(req: Request, res: Timed): number {
  const written = req.socket.bytesWritten;
  return typeof written === 'number' ? written - res[BYTES_BEFORE] : 0;
}

function pickHeaders(req: Request, names: readonly string[]): Record<string, string> | undefined {
  let picked: Record<string, string> | undefined;
  for (const name of names) {
    const value = req.headers[name];
    if (value === undefined) continue;
    picked ??= {};
    picked[name] = REDACTED_HEADERS.has(name) ? REDACTED : cut(Array.isArray(value) ? value.join(', ') : value, MAX_HEADER_VALUE_CHARS);
  }
  return picked;
}

/** A 429 from our own limiter (express-rate-limit sets req.rateLimit), not one passed through. */
function refusedBy(req: Request): string | undefined {
  const limit = (req as Request & { rateLimit?: { key: string; used: number; limit: number } }).rateLimit;
  return limit !== undefined && limit.used > limit.limit ? limit.key : undefined;
}

/**
 * The access line of an answer given outside Express: a request Node's parser rejected (its
 * method and path unread: empty), a CONNECT, a protocol refusal (server/edge/http-refusals.ts) or a
 * request past its connection's bound (server/edge/connections.ts). Same contract; `reason` says why.
 */
export function outsideAccessLine(answer: {
  reqId: string;
  method?: string;
  path?: string;
  route: string;
  status: number;
  bytes: number;
  ip: string | undefined;
  reason: string;
}): AccessLine {
  const { reqId, method = '', path = '', route, status, bytes, ip, reason } = answer;
  return {
    reqId,
    method: cut(method, MAX_ROUTE_CHARS),
    path: cut(path, MAX_PATH_CHARS),
    route,
    status,
    durationMs: 0,
    bytes,
    ip,
    reason: cut(reason, MAX_REASON_CHARS),
  };
}

export interface AccessLogOptions {
  logger: Logger;
  /** Config LOG_REQUEST_HEADERS: lower-case names. */
  requestHeaders: readonly string[];
  /** Whether TRUST_PROXY trusts anything (then the address comes through Express's req.ip). */
  trustProxy: boolean;
  /** Whether TRUST_PROXY trusts the connection's peer (Express's compiled `trust proxy fn`, hop 0). */
  trustsPeer: (address: string | undefined) => boolean;
  refusals: RefusalSummary;
  /** With tracing on (server/telemetry/sentry.ts): the active span, read when the request arrives; else a trusted `traceparent`'s trace. */
  traceContext?: () => TraceContext | undefined;
}

export function createAccessLog(options: AccessLogOptions): RequestHandler {
  const { logger, requestHeaders, refusals, trustProxy, trustsPeer, traceContext } = options;

  function accessLine(req: Request, res: Timed): AccessLine {
    const line: AccessLine = {
      reqId: String(req.id),
      method: req.method,
      path: cut(requestPath(req, res.locals), MAX_PATH_CHARS),
      route: cut(routeOf(req, res), MAX_ROUTE_CHARS),
      status: res.statusCode,
      durationMs: Math.round((performance.now() - res[STARTED]) * 10) / 10,
      bytes: bytesSent(req, res),
      // Express's req.ip: the client's address, through proxies only when TRUST_PROXY says so
      // (without it, the socket's address, read without parsing X-Forwarded-For).
      ip: trustProxy ? req.ip : req.socket.remoteAddress,
    };
    const userAgent = req.headers['user-agent'];
    if (userAgent) line.userAgent = cut(userAgent, MAX_USER_AGENT_CHARS);
    const { digest, rejection } = res.locals;
    if (digest !== undefined) line.digest = digest;
    if (rejection !== undefined) line.reason = cut(rejection, MAX_REASON_CHARS);
    const { trace } = res.locals;
    if (trace !== undefined) {
      line.trace_id = trace.trace_id;
      line.trace_flags = trace.trace_flags;
    }
    if (requestHeaders.length > 0) {
      const headers = pickHeaders(req, requestHeaders);
      if (headers) line.headers = headers;
    }
    return line;
  }

  /** Decided before any field is built: a line nobody will read costs nothing. */
  function level(req: Request, res: Response): string {
    const key = res.statusCode === 429 ? refusedBy(req) : undefined;
    if (key !== undefined) {
      refusals.refused(routeOf(req, res), key);
      return 'silent';
    }
    // Probes run every few seconds forever: logged at debug only when they succeed.
    const quiet = res.statusCode < 400 && (HEALTH_PATHS.has(requestPath(req, res.locals)) || QUIET_ROUTES.has(res.locals.route ?? ''));
    const wanted = quiet ? LINE_LEVEL.quietAccess : LINE_LEVEL.access;
    return logger.isLevelEnabled(wanted) ? wanted : 'silent';
  }

  const message = (req: IncomingMessage, res: ServerResponse) =>
    !req.readableAborted && res.writableEnded ? ACCESS_COMPLETED : ACCESS_ABORTED;
  const build = (req: IncomingMessage, res: ServerResponse) => accessLine(req as Request, res as Timed);

  const middleware = pinoHttp({
    logger,
    // pino-http binds the request to a child logger per request; nothing of it goes on a line,
    // so the binding serialises to nothing instead of copying every header (and redacting them).
    wrapSerializers: false,
    serializers: { req: () => undefined },
    // An incoming id only from a proxy TRUST_PROXY trusts (HAProxy's unique-id, deploy/haproxy.cfg),
    // and only in the log-line contract's shape: any other client would choose the id its
    // lines, its X-Request-Id and its pages' report proofs (failures/report-proof.ts) are bound to.
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const incoming = req.headers['x-request-id'];
      const kept = typeof incoming === 'string' && REQUEST_ID.test(incoming) && trustsPeer(req.socket.remoteAddress);
      const id = kept ? incoming : newRequestId();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel: (req, res) => level(req as Request, res as Response) as 'info',
    customSuccessObject: build,
    customErrorObject: build,
    customSuccessMessage: message,
    customErrorMessage: message,
  });

  return (req, res, next) => {
    const timed = res as Timed;
    timed[STARTED] = performance.now();
    timed[BYTES_BEFORE] = req.socket.bytesWritten ?? 0;
    // The request's span is active now (Sentry's http integration wraps the request); at the
    // response's 'finish', when the line is written, it may not be. Without one, the trace a
    // trusted proxy names (./trace-parent.ts).
    const trace = traceContext?.() ?? (trustsPeer(req.socket.remoteAddress) ? parseTraceparent(req.headers.traceparent) : undefined);
    if (trace !== undefined) res.locals.trace = trace;
    middleware(req, res, next);
  };
}
