import { isIP } from 'node:net';
import { HostError } from './failures/host-error.ts';

// Environment → typed, frozen configuration. Read once at boot; a bad value stops the
// process before it listens, with one line naming the variable, the value and what is allowed.

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const NODE_ENVS = ['development', 'production', 'test'] as const;

/** React Router's default; long enough for slow data, short enough never to hold a socket. */
export const DEFAULT_STREAM_TIMEOUT_MS = 5_000;
/**
 * Docker and podman send SIGKILL 10 s after SIGTERM by default: 2 s of readiness 503 (a load
 * balancer checking every second marks a replica down after two failed checks), 5 s of
 * draining and up to 2 s of flushing Sentry end inside that. Kubernetes waits 30 s by default
 * (terminationGracePeriodSeconds); deploy/kubernetes/ sets longer values to match.
 */
export const DEFAULT_SHUTDOWN_DELAY_MS = 2_000;
export const DEFAULT_SHUTDOWN_GRACE_MS = 5_000;
/** Long enough for a healthy Sentry ingest, short enough not to pile up sockets when it is not. */
export const DEFAULT_TUNNEL_TIMEOUT_MS = 10_000;
/** A per-deployment secret must be long enough not to be guessed. */
const MIN_SECRET_LENGTH = 16;
/** Sentry's own limit on a release name; it is also on every log line, so it stays short. */
const MAX_RELEASE_LENGTH = 200;
/** Each allow-listed header adds up to 256 characters to every access line (server/access-log.ts). */
const MAX_LOGGED_HEADERS = 16;

export type LogLevel = (typeof LOG_LEVELS)[number];
export type NodeEnv = (typeof NODE_ENVS)[number];
/** Express's `trust proxy` setting: false, a hop count or a list of addresses/subnets. */
export type TrustProxy = false | number | string;

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly nodeEnv: NodeEnv;
  readonly isProduction: boolean;
  readonly logLevel: LogLevel;
  readonly streamTimeoutMs: number;
  /** Readiness answers 503 this long after the signal, while the server still serves. */
  readonly shutdownDelayMs: number;
  /** Then in-flight responses get this long once the listener is closed. */
  readonly shutdownGraceMs: number;
  /** Key of the digest HMAC; undefined means a random key per process (see digest.ts). */
  readonly digestKey: string | undefined;
  /** Diagnostic routes exist only when this is set. */
  readonly diagnosticsToken: string | undefined;
  readonly trustProxy: TrustProxy;
  /** When set, the host name shown on error pages; the request's Host is never reflected. */
  readonly publicHostname: string | undefined;
  /**
   * `scheme://host[:port]`: the origin same-origin decisions use (redirect targets). Unset, the
   * request's Host and trusted protocol stand in for it (server/request-origin.ts).
   */
  readonly publicOrigin: string | undefined;
  /** Strict-Transport-Security max-age in seconds; 0 sends no HSTS header. */
  readonly hstsMaxAge: number;
  readonly release: string;
  /** A directory every replica adds its assets to and serves from (see shared-assets.ts). */
  readonly sharedAssetsDir: string | undefined;
  /** Port of the separate /metrics server; undefined: no metrics at all. */
  readonly metricsPort: number | undefined;
  /** Address the /metrics server listens on: loopback unless METRICS_HOST says otherwise. */
  readonly metricsHost: string;
  /** Request headers the access line carries (lower case); empty by default. */
  readonly logRequestHeaders: readonly string[];
  /** Undefined when SENTRY_DSN is not set: then nothing of Sentry is loaded or sent. */
  readonly sentry: SentryConfig | undefined;
}

export interface SentryConfig {
  readonly dsn: string;
  readonly environment: string;
  /** Undefined: trace ids still propagate (sentry-trace/baggage), but no spans are sent. */
  readonly tracesSampleRate: number | undefined;
  /**
   * Whether an incoming sentry-trace/baggage sampling decision is followed. Off: this server's
   * own sampler decides, so a client cannot force its requests to be traced.
   */
  readonly trustUpstreamSampling: boolean;
  /** Share of error events sent (Sentry's `sampleRate`); 1 sends every 5xx. */
  readonly errorSampleRate: number;
  /** Same-origin path the browser SDK posts envelopes to. */
  readonly tunnelPath: string;
  /** DSNs the tunnel forwards for: the configured one plus SENTRY_TUNNEL_ALLOWED_DSNS. */
  readonly allowedDsns: readonly string[];
  /** How long the tunnel waits for Sentry before answering 504. */
  readonly tunnelTimeoutMs: number;
}

/** A bad value stops the process at boot, with this one line (never a stack). */
export class ConfigError extends HostError {
  override name = 'ConfigError';
  constructor(name: string, value: string, allowed: string) {
    super(500, `Invalid ${name}=${JSON.stringify(value)}: expected ${allowed}`, { stackless: true });
  }
}

type Env = Readonly<Record<string, string | undefined>>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || value < min || value > max) {
    throw new ConfigError(name, raw, `an integer from ${min} to ${max}`);
  }
  return value;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, raw, `one of ${allowed.join(', ')}`);
  }
  return raw as T;
}

function secret(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(name, '<redacted>', `at least ${MIN_SECRET_LENGTH} characters`);
  }
  return raw;
}

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

export function isValidHostname(value: string): boolean {
  return HOSTNAME.test(value);
}

function hostname(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!isValidHostname(raw)) throw new ConfigError(name, raw, 'a host name such as shop.example.com');
  return raw.toLowerCase();
}

const ORIGIN_EXAMPLE = 'an origin such as https://shop.example.com or http://localhost:3000 (scheme://host[:port], nothing after)';

/** An http(s) origin exactly as the URL parser serialises it, a trailing slash allowed. */
function origin(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  try {
    const url = new URL(raw);
    const typed = raw.toLowerCase().replace(/\/$/, '');
    if ((url.protocol === 'https:' || url.protocol === 'http:') && typed === url.origin) return url.origin;
  } catch {
    // reported below
  }
  throw new ConfigError(name, raw, ORIGIN_EXAMPLE);
}

/** The host name of an origin, when it is one an error page may show. */
function hostnameOf(publicOrigin: string | undefined): string | undefined {
  const name = publicOrigin === undefined ? undefined : new URL(publicOrigin).hostname;
  return name !== undefined && isValidHostname(name) ? name : undefined;
}

function dsn(name: string, raw: string): string {
  try {
    const url = new URL(raw);
    const projectId = url.pathname.split('/').pop();
    if ((url.protocol === 'https:' || url.protocol === 'http:') && url.username && projectId && /^\d+$/.test(projectId)) return raw;
  } catch {
    // reported below
  }
  throw new ConfigError(name, raw, 'a Sentry DSN such as https://publickey@o0.ingest.sentry.io/123');
}

function rate(env: Env, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!/^(0|1|0?\.\d+|1\.0+)$/.test(raw) || value < 0 || value > 1) throw new ConfigError(name, raw, 'a number from 0 to 1');
  return value;
}

function flag(env: Env, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new ConfigError(name, raw, 'true or false');
}

function sentry(env: Env, nodeEnv: NodeEnv): SentryConfig | undefined {
  if (!env.SENTRY_DSN) return undefined;
  const primary = dsn('SENTRY_DSN', env.SENTRY_DSN);
  const extra = (env.SENTRY_TUNNEL_ALLOWED_DSNS ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const tunnelPath = env.SENTRY_TUNNEL_PATH || '/monitoring';
  if (!/^\/[\w-]+(\/[\w-]+)*$/.test(tunnelPath)) throw new ConfigError('SENTRY_TUNNEL_PATH', tunnelPath, 'a path such as /monitoring');
  return {
    dsn: primary,
    environment: env.SENTRY_ENVIRONMENT || nodeEnv,
    tracesSampleRate: rate(env, 'SENTRY_TRACES_SAMPLE_RATE'),
    trustUpstreamSampling: flag(env, 'SENTRY_TRUST_UPSTREAM_SAMPLING'),
    errorSampleRate: rate(env, 'SENTRY_ERROR_SAMPLE_RATE') ?? 1,
    tunnelPath,
    allowedDsns: [primary, ...extra.map((item) => dsn('SENTRY_TUNNEL_ALLOWED_DSNS', item))],
    tunnelTimeoutMs: integer(env, 'SENTRY_TUNNEL_TIMEOUT_MS', DEFAULT_TUNNEL_TIMEOUT_MS, 100, 60_000),
  };
}

function release(env: Env): string {
  const raw = env.RELEASE;
  if (raw === undefined || raw === '') return 'react-ssr-host@dev';
  if (raw.length > MAX_RELEASE_LENGTH || !/^[\x21-\x7e]+$/.test(raw)) {
    throw new ConfigError('RELEASE', raw, `1 to ${MAX_RELEASE_LENGTH} printable ASCII characters without spaces, such as shop@1.4.0`);
  }
  return raw;
}

/** RFC 9110 §5.1: a field name is a token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

function headerNames(env: Env, name: string): readonly string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return Object.freeze([]);
  const names = [...new Set(raw.split(',').map((item) => item.trim().toLowerCase()))];
  if (names.length > MAX_LOGGED_HEADERS || !names.every((item) => HEADER_NAME.test(item))) {
    throw new ConfigError(
      name,
      raw,
      `a comma-separated list of at most ${MAX_LOGGED_HEADERS} header names, such as referer,x-forwarded-for`,
    );
  }
  return Object.freeze(names);
}

/** Express's names for address ranges (proxy-addr). */
const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
/** More proxies than this in front of one app is a mistake, not a topology. */
const MAX_PROXY_HOPS = 10;
export const TRUST_PROXY_ALLOWED = `false, a hop count from 1 to ${MAX_PROXY_HOPS}, or a comma list of addresses, subnets (10.0.0.0/8) or loopback, linklocal, uniquelocal`;

/** One address, subnet (address/prefix or IPv4 address/netmask) or range name. */
function isProxyAddress(item: string): boolean {
  if (TRUST_PROXY_NAMES.has(item)) return true;
  const [address = '', range, ...rest] = item.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4;
}

/**
 * An IP address to listen on. Metrics name routes, release and process internals: loopback by
 * default, so a scrape needs a sidecar or an explicit METRICS_HOST (0.0.0.0 for a pod's IP).
 * An address, not a host name, so what is exposed never depends on DNS at boot.
 */
function listenAddress(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (isIP(raw) === 0) throw new ConfigError(name, raw, 'an IP address such as 127.0.0.1, or 0.0.0.0 for every interface');
  return raw;
}

function absolutePath(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!raw.startsWith('/') || raw.includes('\0')) throw new ConfigError(name, raw, 'an absolute path such as /srv/assets');
  return raw;
}

/**
 * Express's `trust proxy`. `true` is refused: it believes the left-most X-Forwarded-For entry,
 * which any client writes, so a client could pick its own address, rate-limit key and host.
 * Checked here because Express itself throws on a bad address only when the app is created.
 */
function trustProxy(env: Env): TrustProxy {
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

export function loadConfig(env: Env): Config {
  const nodeEnv = oneOf(env, 'NODE_ENV', NODE_ENVS, 'development');
  const isProduction = nodeEnv === 'production';
  const publicOrigin = origin(env, 'PUBLIC_ORIGIN');
  return Object.freeze({
    port: integer(env, 'PORT', 3000, 0, 65_535),
    host: env.HOST || '0.0.0.0',
    nodeEnv,
    isProduction,
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    streamTimeoutMs: integer(env, 'STREAM_TIMEOUT_MS', DEFAULT_STREAM_TIMEOUT_MS, 100, 600_000),
    shutdownDelayMs: integer(env, 'SHUTDOWN_DELAY_MS', DEFAULT_SHUTDOWN_DELAY_MS, 0, 600_000),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', DEFAULT_SHUTDOWN_GRACE_MS, 0, 600_000),
    digestKey: secret(env, 'DIGEST_KEY'),
    diagnosticsToken: secret(env, 'DIAGNOSTICS_TOKEN'),
    trustProxy: trustProxy(env),
    publicHostname: hostname(env, 'PUBLIC_HOSTNAME') ?? hostnameOf(publicOrigin),
    publicOrigin,
    hstsMaxAge: integer(env, 'HSTS_MAX_AGE', 0, 0, 63_072_000),
    release: release(env),
    logRequestHeaders: headerNames(env, 'LOG_REQUEST_HEADERS'),
    sharedAssetsDir: absolutePath(env, 'SHARED_ASSETS_DIR'),
    metricsPort: env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0, 0, 65_535) : undefined,
    metricsHost: listenAddress(env, 'METRICS_HOST', '127.0.0.1'),
    sentry: Object.freeze(sentry(env, nodeEnv)),
  });
}
