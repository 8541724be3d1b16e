import { randomBytes } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { Config } from './config.ts';

/** 128 bits, as the CSP spec recommends for a nonce. */
const NONCE_BYTES = 16;
/** Random bytes are drawn in blocks: one system call per 256 requests instead of one each. */
const POOL_BYTES = NONCE_BYTES * 256;

let pool = Buffer.alloc(0);
let poolOffset = 0;

function nextNonce(): string {
  if (poolOffset + NONCE_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  poolOffset += NONCE_BYTES;
  return pool.toString('base64', poolOffset - NONCE_BYTES, poolOffset);
}

const nonce = (_req: unknown, res: unknown) => `'nonce-${(res as Response).locals.cspNonce as string}'`;

/**
 * A fresh nonce per request (React puts it on its bootstrap and streaming scripts, see
 * render.ts), then helmet's headers: a CSP that allows only our own and nonced scripts, no
 * framing, no sniffing, a strict referrer policy, and HSTS only when configured (a host
 * served over plain HTTP must not pin itself to HTTPS).
 */
export function securityHeaders(config: Config): RequestHandler[] {
  const setNonce: RequestHandler = (_req, res, next) => {
    res.locals.cspNonce = nextNonce();
    next();
  };
  const headers = helmet({
    // Vite's dev client injects unnonced styles and talks to its HMR socket: CSP is for production.
    contentSecurityPolicy: config.isProduction
      ? {
          useDefaults: false,
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'", nonce],
            styleSrc: ["'self'", nonce],
            // The static fallback error page styles with attributes; attributes cannot run code.
            styleSrcAttr: ["'unsafe-inline'"],
            imgSrc: ["'self'", 'data:'],
            connectSrc: ["'self'"],
            fontSrc: ["'self'"],
            objectSrc: ["'none'"],
            baseUri: ["'self'"],
            formAction: ["'self'"],
            frameAncestors: ["'none'"],
          },
        }
      : false,
    strictTransportSecurity: config.hstsMaxAge > 0 ? { maxAge: config.hstsMaxAge, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
  });
  return [setNonce, headers];
}
