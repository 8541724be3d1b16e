import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type Request, type RequestHandler } from 'express';
import { onPath } from '../edge/on-path.ts';
import type { RevalidateTarget } from '../../shared/host-context.ts';
import { limitBody } from '../edge/body-limit.ts';
import { httpError, methodNotAllowed } from '../failures/errors.ts';
import { checkTarget } from './cache-policy.ts';
import type { Invalidated } from './cache-store.ts';

// On-demand revalidation from outside (a CMS's webhook, a deploy script): POST /_revalidate with
// `Authorization: Bearer <REVALIDATE_TOKEN>` and a JSON body naming paths or tags; it answers
// what it dropped (docs/caching.md, "Dropping entries"). When the shared store did not confirm
// every target, the answer is a 503 with `Retry-After`, which webhooks retry; the host retries too
// (revalidation-retries.ts). Exists only when REVALIDATE_TOKEN is set.

export const REVALIDATE_PATH = '/_revalidate';
/** A webhook names a few pages or tags; the body stays small. */
const MAX_TARGETS = 16;
const MAX_BODY_BYTES = 16_384;
/** What the 503 asks a webhook to wait: the host's own retries are under way meanwhile. */
const RETRY_AFTER_S = 5;

const sha256 = (value: string) => createHash('sha256').update(value).digest();

function targetsOf(req: Request): RevalidateTarget[] {
  if (req.is('application/json') === false)
    throw httpError(415, 'Send application/json: { "path": "/about" } or { "tag": "about" }, or a list of them');
  let body: unknown;
  try {
    body = JSON.parse((req.body as Buffer).toString('utf8'));
  } catch {
    throw httpError(400, 'The body is not valid JSON');
  }
  const list = Array.isArray(body) ? (body as unknown[]) : [body];
  if (list.length === 0 || list.length > MAX_TARGETS) throw httpError(400, `Name 1 to ${MAX_TARGETS} paths or tags`);
  return list.map((item, index) => {
    const checked = checkTarget(item);
    if (typeof checked === 'string') throw httpError(400, `Target ${index}: ${checked}`);
    return checked;
  });
}

export function createRevalidateEndpoint(
  token: string,
  revalidate: (target: RevalidateTarget) => Promise<Invalidated>,
  bodyTimeoutMs: number,
): RequestHandler {
  const expected = sha256(token);
  const router = Router();
  router.post(
    REVALIDATE_PATH,
    (req, res, next) => {
      res.locals.route = REVALIDATE_PATH;
      res.locals.api = true;
      const sent = /^Bearer (.+)$/.exec(req.get('authorization') ?? '')?.[1];
      // Hashed first, so the comparison takes the same time whatever was sent.
      if (sent === undefined || !timingSafeEqual(sha256(sent), expected)) {
        return next(httpError(401, 'Send Authorization: Bearer <REVALIDATE_TOKEN>', { headers: { 'WWW-Authenticate': 'Bearer' } }));
      }
      next();
    },
    limitBody(MAX_BODY_BYTES, bodyTimeoutMs),
    async (req, res) => {
      const targets = targetsOf(req);
      const revalidated = [];
      for (const target of targets) revalidated.push({ ...target, ...(await revalidate(target)) });
      res.set('Cache-Control', 'no-store');
      if (revalidated.every(({ confirmed }) => confirmed)) return void res.json({ revalidated });
      const message = 'The shared store did not confirm every target: their pages may still be served. The host is retrying; retry too.';
      res
        .status(503)
        .set('Retry-After', String(RETRY_AFTER_S))
        .json({ error: { status: 503, message }, revalidated });
    },
  );
  router.all(REVALIDATE_PATH, (req) => {
    throw methodNotAllowed(req.method, 'POST');
  });
  return onPath(REVALIDATE_PATH, router);
}
