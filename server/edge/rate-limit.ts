import { rateLimit } from 'express-rate-limit';
import type { Logger } from 'pino';
import { httpError } from '../failures/errors.ts';
import { serializeError } from '../failures/serialize-error.ts';

/**
 * A per-client limit for endpoints browsers post to. express-rate-limit keys by `req.ip`, which
 * follows TRUST_PROXY (only a configured proxy's X-Forwarded-For is believed), and sets
 * `Retry-After`; the 429 itself goes through the one error path like every other failure.
 */
export function perClientLimit(options: { windowMs: number; limit: number }, logger: Logger) {
  const warn = (level: 'warn' | 'error') => (error: unknown) =>
    logger[level]({ error: serializeError(error) }, 'express-rate-limit reported a problem with its setup');
  return rateLimit({
    ...options,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    // Checks that do not apply here: an X-Forwarded-For or Forwarded header that Express
    // ignores is a client's claim, ignored on purpose when it did not come through a trusted
    // proxy; `trust proxy = true` is refused by config.ts at boot.
    validate: { xForwardedForHeader: false, forwardedHeader: false, trustProxy: false },
    // Whatever it still reports goes to the log as one JSON line, never to stderr as a stack.
    logger: { warn: warn('warn'), error: warn('error') },
    handler: (_req, _res, next) => next(httpError(429, 'Too many requests: slow down and retry later')),
  });
}
