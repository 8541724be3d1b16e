import { Router, type Request, type RequestHandler } from 'express';
import { onPath } from '../edge/on-path.ts';
import { limitBody } from '../edge/body-limit.ts';
import type { Logger } from 'pino';
import { httpError, methodNotAllowed } from '../failures/errors.ts';
import type { ReportProofs } from '../failures/report-proof.ts';
import { PROOF, SERVER_DIGEST } from '../../shared/digest-proof.ts';
import { capStack, MAX_LINE_LENGTH } from '../failures/serialize-error.ts';
import { CLIENT_ERRORS_PATH } from '../../shared/runtime.ts';
import { perClientLimit } from '../edge/rate-limit.ts';
import type { ClientWindows } from '../edge/client-windows.ts';
import { LINE_LEVEL } from '../observe/log-levels.ts';
import { REQUEST_ID } from '../../shared/log-line.ts';
import type { CallFailureHook } from '../failures/failure-hook.ts';
import { readTraceparent } from '../observe/trace-parent.ts';

// Without Sentry, browsers report their failures here, so the server log alone covers both
// sides: one structured line per client failure, with the digest the user sees. Reports are
// written by whoever can reach this endpoint, so they log at warn at most, and a report that
// names a server digest counts as that failure only with the proof the server wrote into the
// page beside it (shared/digest-proof.ts); otherwise its claim is logged as `claimedDigest`,
// never as `digest`, so no search or tool counts it as a server occurrence.

/** A report is a message and a capped stack: 16 KiB is ample and bounds abuse. */
const MAX_REPORT_BYTES = 16 * 1024;
/** A page that fails in a loop must not flood the log: 10 reports a minute per client. */
const REPORTS_PER_MINUTE = 10;
const KINDS = ['caught', 'uncaught', 'recoverable'] as const;
const CLIENT_DIGEST = /^(c-[0-9a-z]{1,16}|[\w-]{16})$/;

export interface ClientErrorReport {
  digest: string;
  kind: (typeof KINDS)[number];
  type: string;
  message: string;
  stack?: string;
  /** The page's path, without query string. */
  path: string;
  /** The request id of the page load, which the server wrote into the page. */
  pageReqId?: string;
  /** With a server digest: the proof the server wrote beside it (shared/digest-proof.ts). */
  proof?: string;
  /**
   * The page's trace, as the server wrote it into the page (server/render/document-head.ts): the
   * line takes its ids, so the browser's failure is a record of the trace that served the page.
   * Unproven, like pageReqId: a client can name any trace id; the line is at warn and
   * `side: 'client'`, and the failure hook never gets it.
   */
  pageTrace?: { trace_id: string; span_id: string; trace_flags: string };
}

function text(value: unknown, name: string, max: number): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    throw httpError(400, `Invalid client error report: "${name}" must be a string of 1 to ${max} characters`);
  }
  return value;
}

export function parseReport(body: unknown): ClientErrorReport {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw httpError(400, 'Invalid client error report: expected a JSON object');
  }
  const input = body as Record<string, unknown>;
  const digest = text(input.digest, 'digest', 32);
  if (!CLIENT_DIGEST.test(digest)) throw httpError(400, 'Invalid client error report: malformed "digest"');
  const kind = text(input.kind, 'kind', 16) as ClientErrorReport['kind'];
  if (!KINDS.includes(kind)) throw httpError(400, `Invalid client error report: "kind" must be one of ${KINDS.join(', ')}`);
  const path = text(input.path, 'path', 2048);
  if (!path.startsWith('/')) throw httpError(400, 'Invalid client error report: "path" must start with /');
  const report: ClientErrorReport = {
    digest,
    kind,
    type: text(input.type, 'type', 256),
    message: text(input.message, 'message', MAX_LINE_LENGTH),
    path: path.split('?')[0]!,
  };
  if (input.stack !== undefined && input.stack !== '') report.stack = capStack(text(input.stack, 'stack', MAX_REPORT_BYTES));
  if (typeof input.pageReqId === 'string' && REQUEST_ID.test(input.pageReqId)) report.pageReqId = input.pageReqId;
  if (typeof input.proof === 'string' && PROOF.test(input.proof)) report.proof = input.proof;
  const trace = readTraceparent(input.pageTraceparent);
  if (trace !== undefined) report.pageTrace = { trace_id: trace.traceId, span_id: trace.parentId, trace_flags: trace.flags };
  return report;
}

/**
 * How a report's digest is logged: a client digest (`c-…`) as itself; a server digest as
 * `digest` only when its proof checks out for the page it names and has not been used before
 * (report-proof.ts: on this replica, or with REDIS_URL on any), else as `claimedDigest` with
 * `proofStatus` saying why.
 */
async function digestFields(report: ClientErrorReport, proofs: ReportProofs): Promise<Record<string, unknown>> {
  const { digest, proof, pageReqId } = report;
  if (!SERVER_DIGEST.test(digest)) return { digest };
  const proofStatus = proof === undefined || pageReqId === undefined ? 'missing' : await proofs.check(digest, pageReqId, proof);
  return proofStatus === 'verified' ? { digest, verified: true } : { claimedDigest: digest, verified: false, proofStatus };
}

/** sendBeacon posts text/plain; fetch posts JSON. Any other type is not a report. */
const REPORT_TYPES = ['application/json', 'text/plain'];

function jsonBody(req: Request): unknown {
  const body = req.body as Buffer;
  if (body.length === 0 || req.is(REPORT_TYPES) === false) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw httpError(400, 'Invalid client error report: the body is not valid JSON');
  }
}

/**
 * `onFailure`: the app's failure hook gets the verified reports only, once the 204 is sent: those
 * carry the server's proof that it wrote the digest into that page. Anyone can post a `c-` digest
 * or a claim, and a hook that exports them would carry whatever a stranger wrote.
 */
export function createClientErrorsRouter(
  logger: Logger,
  proofs: ReportProofs,
  bodyTimeoutMs: number,
  onFailure?: CallFailureHook,
  windows?: ClientWindows,
): RequestHandler {
  const router = Router();
  router.post(
    CLIENT_ERRORS_PATH,
    perClientLimit({ name: 'client-errors', windowMs: 60_000, limit: REPORTS_PER_MINUTE }, logger, windows),
    limitBody(MAX_REPORT_BYTES, bodyTimeoutMs),
    async (req: Request, res) => {
      res.locals.route = CLIENT_ERRORS_PATH;
      const report = parseReport(jsonBody(req));
      const { stack, type, message, digest: _digest, proof: _proof, pageTrace, ...where } = report;
      const fields = await digestFields(report, proofs);
      const msg = fields.verified === false ? 'client error naming a server digest without a valid proof' : 'client error';
      logger[LINE_LEVEL.report]({ side: 'client', reqId: req.id, ...fields, ...where, ...pageTrace, error: { type, message, stack } }, msg);
      res.status(204).end();
      if (onFailure && fields.verified === true) {
        // The page's failure, not the report's POST: its path is the route; no method or path of a request of its own.
        const event = {
          digest: report.digest,
          status: undefined,
          route: report.path,
          kind: 'browser' as const,
          reqId: report.pageReqId,
          method: undefined,
          path: undefined,
        };
        res.once('close', () => void onFailure({ ...event, error: { type, message, stack } }));
      }
    },
  );
  router.all(CLIENT_ERRORS_PATH, (req) => {
    throw methodNotAllowed(req.method, 'POST');
  });
  return onPath(CLIENT_ERRORS_PATH, router);
}
