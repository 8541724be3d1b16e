import { Router, type Request, type RequestHandler, type Response } from 'express';
import { onPath } from '../edge/on-path.ts';
import { limitBody } from '../edge/body-limit.ts';
import type { Logger } from 'pino';
import type { SentryConfig } from '../config/config.ts';
import { httpError, methodNotAllowed } from '../failures/errors.ts';
import { perClientLimit } from '../edge/rate-limit.ts';
import type { ClientWindows } from '../edge/client-windows.ts';

// The same-origin path the browser SDK sends its envelopes to, so ad blockers don't drop them.
// It forwards only for our own DSNs (never an open relay, never a request to a host a client
// chose), caps the body, rate-limits each client, times out, and passes Sentry's own rate
// limits back. The body is forwarded byte for byte: an envelope may carry binary items.

/** Sentry rejects an event over 1 MB decompressed (docs/reference-facts.md); an envelope may hold a few. */
export const MAX_ENVELOPE_BYTES = 1024 * 1024;
/** The envelope header is one short JSON line; Sentry's own handler allows 64 KiB. */
const MAX_HEADER_BYTES = 64 * 1024;
/** A browser sends a handful of envelopes per page; 60 a minute is generous and bounded. */
const ENVELOPES_PER_MINUTE = 60;
/** Sentry's answers the browser SDK acts on. */
const PASSED_HEADERS = ['retry-after', 'x-sentry-rate-limits', 'content-type'];

const NEWLINE = 0x0a;
/** Enough of a network error to tell a refusal from a DNS failure. */
const MAX_DETAIL_CHARS = 300;

/** The envelope URL of a DSN: http(s)://host[/path]/api/<project>/envelope/. */
export function envelopeUrl(dsn: string): string {
  const url = new URL(dsn);
  const segments = url.pathname.split('/').filter(Boolean);
  const projectId = segments.pop();
  const prefix = segments.length ? `/${segments.join('/')}` : '';
  return `${url.protocol}//${url.host}${prefix}/api/${projectId}/envelope/`;
}

function headerDsn(body: Buffer): string {
  const end = body.indexOf(NEWLINE);
  const headerEnd = end === -1 ? body.length : end;
  if (headerEnd > MAX_HEADER_BYTES) throw httpError(400, 'Malformed envelope: header too long');
  let header: unknown;
  try {
    header = JSON.parse(body.subarray(0, headerEnd).toString('utf8'));
  } catch {
    throw httpError(400, 'Malformed envelope: the first line is not JSON');
  }
  const dsn = (header as { dsn?: unknown } | null)?.dsn;
  if (typeof dsn !== 'string') throw httpError(400, 'Malformed envelope: the header has no dsn');
  return dsn;
}

/** What fetch's failure says (its message, and its cause's code and message), bounded. */
function networkDetail(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const parts = [error instanceof Error ? error.message : 'unknown', cause?.code, cause?.message].filter(
    (part) => typeof part === 'string',
  );
  return parts.join(': ').slice(0, MAX_DETAIL_CHARS);
}

async function forward(url: string, body: Buffer, res: Response, timeoutMs: number): Promise<void> {
  let upstream: globalThis.Response;
  try {
    upstream = await fetch(url, {
      method: 'POST',
      body: new Uint8Array(body), // a copy typed as fetch wants it; bytes unchanged
      headers: { 'Content-Type': 'application/x-sentry-envelope' },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (cause) {
    const timedOut = cause instanceof Error && cause.name === 'TimeoutError';
    // The host's own failure, one digest whatever the network said (pinned, tests/failures/host-digests.test.ts):
    // what it said is the line's detail, never hashed, and where this file raised it says nothing.
    const message = timedOut ? 'Sentry did not answer in time' : 'Sentry could not be reached';
    throw httpError(timedOut ? 504 : 502, message, { detail: networkDetail(cause), stackless: true });
  }
  if (upstream.status >= 300 && upstream.status < 400)
    throw httpError(502, 'Sentry answered with a redirect, which is not followed', { stackless: true });
  for (const name of PASSED_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) res.set(name, value);
  }
  res.status(upstream.status).send(Buffer.from(await upstream.arrayBuffer()));
}

/** `windows`: where its per-client counts live (the fleet's with REDIS_URL), else its own memory. */
export function createTunnelRouter(sentry: SentryConfig, logger: Logger, bodyTimeoutMs: number, windows?: ClientWindows): RequestHandler {
  const allowed = new Map(sentry.allowedDsns.map((dsn) => [dsn, envelopeUrl(dsn)]));
  const router = Router();
  router.post(
    sentry.tunnelPath,
    (_req, res, next) => {
      res.locals.api = true;
      res.locals.route = sentry.tunnelPath;
      next();
    },
    perClientLimit({ name: 'tunnel', windowMs: 60_000, limit: ENVELOPES_PER_MINUTE }, logger, windows),
    limitBody(MAX_ENVELOPE_BYTES, bodyTimeoutMs),
    async (req: Request, res) => {
      const body = req.body as unknown;
      if (!Buffer.isBuffer(body) || body.length === 0) throw httpError(400, 'Malformed envelope: empty body');
      const url = allowed.get(headerDsn(body));
      if (url === undefined) throw httpError(403, 'This tunnel does not forward for that DSN');
      await forward(url, body, res, sentry.tunnelTimeoutMs);
    },
  );
  router.all(sentry.tunnelPath, (req, res) => {
    res.locals.api = true;
    throw methodNotAllowed(req.method, 'POST');
  });
  return onPath(sentry.tunnelPath, router);
}
