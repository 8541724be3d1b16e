import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import type { Config } from '../config/config.ts';

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

/** Stands for the nonce while helmet writes the headers once; it cannot occur in them otherwise. */
const NONCE_SLOT = '\u0000nonce\u0000';
const nonce = `'nonce-${NONCE_SLOT}'`;

/** The host's sources for a directive, then the app's (CSP_* variables), each once. */
const withApp = (host: string[], app: readonly string[]) => [...new Set([...host, ...app])];

/**
 * The host's policy: its own origin, nonced scripts and styles (the Sentry tunnel and the
 * navigation data are same-origin), plus the origins the app names (server/config/csp-sources.ts).
 * frame-src and media-src fall back to default-src 'self' unless the app adds to them.
 */
function directives({ csp }: Config) {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: withApp(["'self'", nonce], csp.scriptSrc),
    styleSrc: withApp(["'self'", nonce], csp.styleSrc),
    // The static fallback error page styles with attributes; attributes cannot run code.
    styleSrcAttr: ["'unsafe-inline'"],
    imgSrc: withApp(["'self'", 'data:'], csp.imgSrc),
    connectSrc: withApp(["'self'"], csp.connectSrc),
    fontSrc: withApp(["'self'"], csp.fontSrc),
    ...(csp.frameSrc.length > 0 && { frameSrc: withApp(["'self'"], csp.frameSrc) }),
    ...(csp.mediaSrc.length > 0 && { mediaSrc: withApp(["'self'"], csp.mediaSrc) }),
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  };
}

function helmetFor(config: Config) {
  return helmet({
    // Vite's dev client injects unnonced styles and talks to its HMR socket: CSP is for production.
    contentSecurityPolicy: config.isProduction ? { useDefaults: false, directives: directives(config) } : false,
    strictTransportSecurity: config.hstsMaxAge > 0 ? { maxAge: config.hstsMaxAge, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
  });
}

/**
 * helmet's headers, written once at start-up into a recording response. They are the same for
 * every response except the nonce, so a request only fills the nonce in instead of running
 * helmet's twelve middlewares and rebuilding the CSP (both showed in the error path's profile).
 */
function recordHeaders(config: Config): [name: string, parts: string[]][] {
  const headers: [string, string[]][] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.push([name, String(value).split(NONCE_SLOT)]),
    removeHeader: () => undefined, // X-Powered-By: createApp disables it
  };
  let done = false;
  helmetFor(config)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error !== undefined) throw new Error('helmet failed to set its headers', { cause: error });
    done = true;
  });
  if (!done) throw new Error('helmet did not set its headers synchronously');
  return headers;
}

/**
 * A fresh nonce per request (React and React Router put it on their scripts, see
 * server/render/document.tsx), and helmet's headers: a CSP that allows only our own and nonced scripts, no
 * framing, no sniffing, a strict referrer policy, and HSTS only when configured (a host
 * served over plain HTTP must not pin itself to HTTPS).
 */
export function securityHeaders(config: Config): RequestHandler {
  const headers = recordHeaders(config);
  return (_req, res, next) => {
    const cspNonce = nextNonce();
    res.locals.cspNonce = cspNonce;
    for (const [name, parts] of headers) res.setHeader(name, parts.length === 1 ? parts[0]! : parts.join(cspNonce));
    next();
  };
}
