import type { Request } from 'express';
import { isValidHostname, type Config } from './config.ts';
import { FALLBACK_HOSTNAME } from '../shared/messages.ts';

/**
 * The host name an error page shows. A configured one wins; otherwise the request's, but only
 * when it is a syntactically valid host name, so a forged Host header is never reflected.
 */
export function displayHostname(config: Config, req: Request): string {
  if (config.publicHostname !== undefined) return config.publicHostname;
  const candidate = req.hostname;
  return typeof candidate === 'string' && isValidHostname(candidate) ? candidate.toLowerCase() : FALLBACK_HOSTNAME;
}

const MAX_PORT = 65_535;

/**
 * The origin the request was addressed to, for resolving a loader's redirect. Only a valid
 * host name (and port) is taken from the Host header; anything else resolves as localhost.
 */
export function requestOrigin(req: Request): string {
  const host = req.get('host') ?? '';
  const [name = '', port] = host.split(/:(?=\d{1,5}$)/);
  const validPort = port === undefined || Number(port) <= MAX_PORT;
  const safeHost = isValidHostname(name) && validPort ? (port === undefined ? name : `${name}:${port}`) : 'localhost';
  return `${req.protocol}://${safeHost.toLowerCase()}`;
}
