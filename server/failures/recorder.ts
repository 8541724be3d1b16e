import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { joinDigestProof } from '../../shared/digest-proof.ts';
import type { Digester } from './digest.ts';
import type { ReportProofs } from './report-proof.ts';
import { isHostError, statusOf } from './error-status.ts';
import { serializeError } from './serialize-error.ts';
import { isInstance, unwrapThrown } from './thrown-value.ts';
import { requestPath } from '../observe/url-path.ts';
import type { FailureKind, Metrics } from '../observe/metrics.ts';
import { LINE_LEVEL } from '../observe/log-levels.ts';
import { FAILURE_MESSAGE, PROCESS_FAULT_MESSAGE, SECONDARY_FAILURE_MESSAGE } from '../../shared/log-line.ts';
import { routeOf } from '../observe/route-label.ts';
import type { FailureWork } from '../../shared/failure-event.ts';
import type { CallFailureHook } from './failure-hook.ts';

// error → status → digest → one log line → report. Every path that meets a failure (the
// terminal middleware, React's onError, process faults) comes here, and each thrown value is
// logged and reported once however many paths meet it.

/** A failure as recorded: its status, and for a 5xx the digest of its one log line. */
export interface Recorded {
  status: number;
  digest: string | undefined;
  /** For a server failure shown in a page: what the page carries (the digest and its proof, shared/digest-proof.ts). */
  pageDigest?: string;
  /** Development only: the failure's message and stack, for the route's boundary to show. */
  detail?: string;
}

export interface FailureReport extends Recorded {
  error: unknown;
  reqId: string;
  method: string;
  path: string;
  route: string;
}

/** Where failures go besides the log (Sentry, an OTLP span); only 5xx are reported. `res`: the request's response, whose locals a reporter may read. */
export type Reporter = (report: FailureReport & { digest: string }, res: Response) => void;
/** Where a process fault goes besides the log (Sentry, at level fatal). */
export type FaultReporter = (error: unknown, digest: string) => void;

export interface FailureRecorder {
  /** `kind` says where it happened, for metrics: a route handler unless told otherwise. */
  record(error: unknown, req: Request, res: Response, kind?: FailureKind): Recorded;
  /** What React writes into a page for a failure (`<digest>.<proof>`, shared/digest-proof.ts); undefined for a 4xx. */
  pageDigest(failure: Recorded, req: Request): string | undefined;
  /**
   * The error page for `original` failed too: logged once per response at error, beside the
   * original digest, marked `secondaryFailure` so it is never counted as another occurrence.
   */
  secondary(error: unknown, req: Request, res: Response, original: Recorded): void;
  /**
   * A fault outside any request (uncaughtException, unhandledRejection): one line at fatal, its
   * report, the app's failure hook; `hooked` resolves when the hook settled or timed out.
   */
  fault(kind: string, error: unknown): { digest: string; hooked: Promise<void> };
}

/**
 * Values already recorded for this response, keyed by the thrown value itself (a Map, so a
 * thrown string or undefined is recognised too). Per response, not per app: an error object
 * shared between requests (a cached rejected promise, say) is a failure of each of them.
 */
function recordedFor(res: Response): Map<unknown, Recorded> {
  return (res.locals.failures ??= new Map<unknown, Recorded>());
}

export interface RecorderDeps {
  digester: Digester;
  logger: Logger;
  reporter?: Reporter;
  faultReporter?: FaultReporter;
  /** Rewrites the stack to source files and lines before it is fingerprinted and logged. */
  fixStack?: (error: unknown) => void;
  /** Signs the digests written into pages, so browser reports of them can be verified. */
  proofs?: ReportProofs;
  /** Counts failures (what has a digest: never a 4xx) by kind and status (server/observe/metrics.ts), when metrics are on. */
  metrics?: Pick<Metrics, 'failure'>;
  /** The app's failure hook, isolated (failure-hook.ts): called once per failure after its line. */
  onFailure?: CallFailureHook;
}

export function createFailureRecorder(deps: RecorderDeps): FailureRecorder {
  const recorder: FailureRecorder = {
    pageDigest({ digest }, req) {
      if (digest === undefined || deps.proofs === undefined) return digest;
      return joinDigestProof(digest, deps.proofs.sign(digest, String(req.id)));
    },
    secondary(error, req, res, original) {
      if (res.locals.secondaryLogged === true) return;
      res.locals.secondaryLogged = true;
      const fields = {
        digest: original.digest,
        status: original.status,
        reqId: String(req.id),
        method: req.method,
        path: requestPath(req, res.locals),
        route: routeOf(req, res),
      };
      deps.logger[LINE_LEVEL.failure](
        { ...fields, secondaryFailure: true, error: serializeError(unwrapThrown(error)) },
        SECONDARY_FAILURE_MESSAGE,
      );
    },
    fault(kind, error) {
      deps.fixStack?.(error);
      const digest = deps.digester(error);
      deps.logger[LINE_LEVEL.processFault]({ digest, kind, error: serializeError(error) }, PROCESS_FAULT_MESSAGE);
      deps.metrics?.failure('process', undefined);
      // Whatever was thrown is reported as it is; if Sentry cannot read it, the log line stands.
      try {
        deps.faultReporter?.(error, digest);
      } catch {
        // nothing more to do: the line is written
      }
      const hooked =
        deps.onFailure?.({
          digest,
          status: undefined,
          route: kind,
          kind: 'process',
          reqId: undefined,
          error,
          method: undefined,
          path: undefined,
        }) ?? Promise.resolve();
      return { digest, hooked };
    },
    record(thrown, req, res, kind = 'route') {
      const error = unwrapThrown(thrown);
      const recorded = recordedFor(res);
      const known = recorded.get(error);
      if (known) return known;
      const status = statusOf(error);
      // pino-http's convention: the response's error. Without it pino-http constructs an Error
      // (and captures a stack nobody reads) for every 5xx access line.
      if (isInstance(error, Error)) res.err ??= error;
      if (status < 500) {
        // An expected 4xx is fully described by its status and reason: both go on the request's
        // access line (access-log.ts), which every request gets anyway, and no line of its own.
        // Nor a count in app_failures_total: a failure is what has a digest, and a scanner's 404s
        // would page (deploy/prometheus/alerts.yaml) for nothing the digest tool could find.
        const rejected: Recorded = { status, digest: undefined };
        recorded.set(error, rejected);
        res.locals.rejection ??= isHostError(error) ? error.message : serializeError(error).message;
        return rejected;
      }

      deps.metrics?.failure(kind, status);
      deps.fixStack?.(error);
      const digest = deps.digester(error);
      const failure: Recorded = { status, digest };
      recorded.set(error, failure);
      res.locals.digest ??= digest;
      const where = { ...failure, reqId: String(req.id), method: req.method, path: requestPath(req, res.locals), route: routeOf(req, res) };
      // A prefetch's failure (server/render/react-router-handler.ts) is one line at warn and no report: any client can
      // mark a request so, which lowers the level and hides nothing.
      const prefetch = res.locals.prefetch === true;
      const level = prefetch ? LINE_LEVEL.prefetchFailure : LINE_LEVEL.failure;
      // At LOG_LEVEL=fatal the line is not written: then nothing of it is built either.
      if (deps.logger.isLevelEnabled(level)) {
        const trace = res.locals.trace;
        // A stored page's regeneration failed: the stale page is still answered (server/pages/page-cache.ts).
        const revalidation = kind === 'revalidation';
        const fields = {
          ...where,
          ...trace,
          headersSent: res.headersSent,
          ...(prefetch && { prefetch }),
          ...(revalidation && { revalidation }),
          error: serializeError(error),
        };
        deps.logger[level](fields, FAILURE_MESSAGE);
      }
      if (prefetch) return failure;
      report(deps, { ...where, error, digest }, res);
      const { onFailure } = deps;
      const event = {
        digest,
        status,
        route: where.route,
        kind: workOf(kind, req, where.route),
        reqId: where.reqId,
        error,
        method: where.method,
        path: where.path,
      };
      if (onFailure) afterAnswer(res, () => void onFailure(res.locals.trace ? { ...event, trace: res.locals.trace } : event));
      return failure;
    },
  };
  return recorder;
}

/** What the hook calls the work that failed: the metrics' kind, told apart by the request. */
function workOf(kind: FailureKind, req: Request, route: string): FailureWork {
  if (kind === 'render' || kind === 'revalidation' || kind === 'process') return kind;
  if (kind === 'client_report') return 'browser';
  // A page's loader, or on a write its action (React Router runs the action first); or what the
  // host refused of their answer (a redirect elsewhere, the deadline).
  if (route.startsWith('page:') || route.startsWith('data:')) return req.method === 'GET' || req.method === 'HEAD' ? 'loader' : 'action';
  return 'resource';
}

/** The hook never runs in the answer's way: once the response is done (or at once, if it is). */
function afterAnswer(res: Response, call: () => void): void {
  if (res.writableFinished || res.destroyed) setImmediate(call);
  else res.once('close', call);
}

/** A reporter that fails (a value Sentry cannot read, say) must not fail the response. */
function report(deps: RecorderDeps, failure: FailureReport & { digest: string }, res: Response): void {
  try {
    deps.reporter?.(failure, res);
  } catch (error) {
    deps.logger[LINE_LEVEL.report](
      { digest: failure.digest, reqId: failure.reqId, reportError: serializeError(error) },
      'could not report the failure',
    );
  }
}
