import { rateLimit } from 'express-rate-limit';
import { HttpError } from './errors/http-error.ts';

/**
 * A per-client limit for endpoints browsers post to. express-rate-limit keys by `req.ip`
 * (right behind a proxy only with TRUST_PROXY set) and sets `Retry-After`; the 429 itself goes
 * through the one error path like every other failure.
 */
export function perClientLimit(options: { windowMs: number; limit: number }) {
  return rateLimit({
    ...options,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, _res, next) => next(new HttpError(429, 'Too many requests: slow down and retry later')),
  });
}
