import { domainToUnicode } from 'node:url';
import type { Request, RequestHandler } from 'express';
import { boundedMemo } from '../../shared/bounded-memo.ts';
import { FALLBACK_HOSTNAME } from '../../shared/messages.ts';
import { isValidHostname, type Config } from '../config/config.ts';
import { httpError } from '../failures/errors.ts';

// The request's origin is decided once, here, and every same-origin decision reads it
// (res.locals.origin): redirect targets, a form's Origin check. PUBLIC_ORIGIN wins
// when set, so no value a client chose is ever used; without it, the Host (or a trusted
// X-Forwarded-Host) and the trusted protocol, as the WHATWG URL parser reads them. Whether the
// browser is on https (res.locals.secure: the session cookie's Secure and name) is decided here
// too: the trusted protocol's https, or an https PUBLIC_ORIGIN.
//
// A Host that parser rejects (`1.2.3.4.5`, `999.1.1.1`, `xn--a`) or rewrites (`123` →
// `0.0.0.123`, `0x7f.1` → `127.0.0.1`, `bücher.example` → punycode) is not the name a browser
// sent for this site: it is a 400, "a Host header field with an invalid field value"
// (RFC 9112 §3.2), answered before anything builds a URL from it.

/** `name[:port]`, the name possibly a bracketed IPv6 literal (RFC 9110 §7.2, RFC 3986 §3.2.2). */
const HOST_PORT = /^(\[[^\]]*\]|[^:[\]]+)(?::(\d{1,5}))?$/;
/** Distinct Host values remembered; a client inventing one per request costs at most this. */
const MAX_REMEMBERED_HOSTS = 256;

interface ResolvedHost {
  /** As URL serialises it: lower case, a default port dropped. */
  origin: string;
  /** The host name alone, lower case. */
  hostname: string;
}

/**
 * The origin of `protocol://host`, or undefined when the URL parser rejects the host or keeps
 * another name than the one sent (a port over 65535 is rejected by the parser too).
 */
function resolveHost(protocol: 'http' | 'https', host: string): ResolvedHost | undefined {
  const match = HOST_PORT.exec(host);
  if (match === null) return undefined;
  const hostname = match[1]!.toLowerCase();
  let parsed: URL;
  try {
    parsed = new URL(`${protocol}://${host}`);
  } catch {
    return undefined;
  }
  return parsed.hostname === hostname && punycodeDecodes(hostname) ? { origin: parsed.origin, hostname } : undefined;
}

/**
 * Every `xn--` label is punycode that decodes: Node 20 and 22's URL parser refused `xn--a`, Node
 * 26's keeps it as sent, so the host checks it itself (the decoder leaves a label it cannot
 * decode as it was; a valid one always decodes to something else).
 */
function punycodeDecodes(hostname: string): boolean {
  if (!hostname.includes('xn--')) return true;
  return hostname.split('.').every((label) => !label.startsWith('xn--') || domainToUnicode(label) !== label);
}

const isHttps = (origin: string | undefined): boolean => origin?.startsWith('https:') ?? false;

const remembered = boundedMemo((key: string) => {
  const space = key.indexOf(' ');
  return resolveHost(key.slice(0, space) as 'http' | 'https', key.slice(space + 1));
}, MAX_REMEMBERED_HOSTS);

/** Express's `req.protocol` honours a trusted X-Forwarded-Proto as it is: anything but http(s) is ignored. */
function protocolOf(req: Request): 'http' | 'https' {
  const claimed = req.protocol.toLowerCase();
  if (claimed === 'http' || claimed === 'https') return claimed;
  return (req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
}

/**
 * Validates the Host (Express's `req.host`: the trusted X-Forwarded-Host or Host) and records
 * the request's origin and display host name. After the access logger, so a 400 is logged.
 */
export function resolveOrigin(config: Config): RequestHandler {
  const configured = config.publicOrigin;
  const configuredSecure = isHttps(configured);
  return (req, res, next) => {
    // HTTP/1.0 may omit Host (Node requires it of HTTP/1.1): such a request is this server's.
    const protocol = protocolOf(req);
    const resolved = remembered(`${protocol} ${req.host ?? 'localhost'}`);
    if (resolved === undefined) return next(httpError(400, 'Invalid Host header: not a host name as a URL keeps it'));
    res.locals.origin = configured ?? resolved.origin;
    res.locals.hostname = resolved.hostname;
    res.locals.secure = protocol === 'https' || configuredSecure;
    next();
  };
}

/** The request's origin, as resolveOrigin recorded it (or the configured one, for a request refused before). */
export function requestOrigin(config: Config, res: { locals: Express.Locals }): string {
  return res.locals.origin ?? config.publicOrigin ?? 'http://localhost';
}

/**
 * Whether the browser reached this request over https: the connection's or the trusted
 * X-Forwarded-Proto's protocol, as resolveOrigin read it, or an https PUBLIC_ORIGIN (TLS ends
 * before the host and the balancer does not say so). What a cookie's Secure attribute follows.
 */
export function requestIsSecure(config: Config, res: { locals: Express.Locals }): boolean {
  return res.locals.secure ?? isHttps(config.publicOrigin);
}

/**
 * The host name an error page shows: the configured one, else the request's when it is a
 * plain, valid host name; a forged Host is never reflected (docs/reference-facts.md).
 */
export function displayHostname(config: Config, res: { locals: Express.Locals }): string {
  if (config.publicHostname !== undefined) return config.publicHostname;
  const candidate = res.locals.hostname;
  return candidate !== undefined && isValidHostname(candidate) ? candidate : FALLBACK_HOSTNAME;
}
