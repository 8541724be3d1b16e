import { rateLimit, type Store } from 'express-rate-limit';
import type { Logger } from 'pino';
import { httpError } from '../failures/errors.ts';
import { serializeError } from '../failures/serialize-error.ts';
import type { ClientWindows } from './client-windows.ts';

export interface PerClientLimit {
  /** The limit's name in the shared store's keys (`host:<name>:<client>`). */
  name: string;
  windowMs: number;
  limit: number;
}

/**
 * express-rate-limit's counts kept in `windows` (with REDIS_URL, the fleet's: server/fleet/redis-windows.ts),
 * so a client that switches replicas gets no new window. Its keys are the limiter's (`req.ip`, an
 * IPv6 address by its /56), after this limit's name.
 */
function windowStore(windows: ClientWindows, name: string): Store {
  let windowMs = 0;
  const keyOf = (key: string) => `host:${name}:${key}`;
  return {
    prefix: `host:${name}:`,
    // Counted in a store the replicas share: a key here is not this process's alone.
    localKeys: false,
    init(options) {
      windowMs = options.windowMs;
    },
    async increment(key) {
      const { count, resetAt } = await windows.hit(keyOf(key), windowMs);
      return { totalHits: count, resetTime: new Date(resetAt) };
    },
    decrement: (key) => windows.undo(keyOf(key)),
    resetKey: (key) => windows.forget(keyOf(key)),
  };
}

/**
 * A per-client limit for endpoints browsers post to. express-rate-limit keys by `req.ip`, which
 * follows TRUST_PROXY (only a configured proxy's X-Forwarded-For is believed), and sets
 * `Retry-After`; the 429 itself goes through the one error path like every other failure.
 * Without `windows`, its own memory store counts (this process alone).
 */
export function perClientLimit({ name, ...options }: PerClientLimit, logger: Logger, windows?: ClientWindows) {
  const warn = (level: 'warn' | 'error') => (error: unknown) =>
    logger[level]({ error: serializeError(error) }, 'express-rate-limit reported a problem with its setup');
  return rateLimit({
    ...options,
    ...(windows === undefined ? {} : { store: windowStore(windows, name) }),
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
