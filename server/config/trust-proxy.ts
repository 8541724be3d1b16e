import { isIP } from 'node:net';
import { ConfigError, type Env } from './config-values.ts';

// TRUST_PROXY: which proxies' X-Forwarded-* headers Express believes (docs/security.md, "Trust settings").

export type TrustProxy = false | number | string;

/** Express's names for address ranges (proxy-addr). */
const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
/** More proxies than this in front of one app is a mistake, not a topology. */
const MAX_PROXY_HOPS = 10;
export const TRUST_PROXY_ALLOWED = `false, a hop count from 1 to ${MAX_PROXY_HOPS}, or a comma list of addresses, subnets (10.0.0.0/8) or loopback, linklocal, uniquelocal`;

/** One address, subnet (address/prefix or IPv4 address/netmask) or range name. */
export function isProxyAddress(item: string): boolean {
  if (TRUST_PROXY_NAMES.has(item)) return true;
  const [address = '', range, ...rest] = item.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4;
}

/**
 * Express's `trust proxy`. `true` is refused: it believes the left-most X-Forwarded-For entry,
 * which any client writes, so a client could pick its own address, rate-limit key and host.
 * Checked here because Express itself throws on a bad address only when the app is created.
 */
export function trustProxy(env: Env): TrustProxy {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') {
    throw new ConfigError('TRUST_PROXY', raw, `${TRUST_PROXY_ALLOWED} (true would let any client choose its address with X-Forwarded-For)`);
  }
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops === 0) return false;
    if (hops > MAX_PROXY_HOPS) throw new ConfigError('TRUST_PROXY', raw, TRUST_PROXY_ALLOWED);
    return hops;
  }
  const items = raw.split(',').map((item) => item.trim());
  if (items.every(isProxyAddress)) return items.join(', ');
  throw new ConfigError('TRUST_PROXY', raw, TRUST_PROXY_ALLOWED);
}
