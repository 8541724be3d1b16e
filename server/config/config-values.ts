import { isIP } from 'node:net';
import { basename, resolve } from 'node:path';
import { HostError } from '../failures/errors.ts';

// The readers of config.ts: each takes one variable from the environment and returns its typed
// value, or stops the boot with a ConfigError naming the variable, the value and what is allowed.

/** A per-deployment secret must be long enough not to be guessed. */
const MIN_SECRET_LENGTH = 16;
/** Sentry's own limit on a release name; it is also on every log line, so it stays short. */
const MAX_RELEASE_LENGTH = 200;
/**
 * A replica's name is on every log line: `,"replica":""` is 13 bytes, so 42 characters keep the
 * access line's growth under 60 bytes, and under 120 with tracing's trace_id and trace_flags
 * (65 bytes, server/observe/access-log.ts). A Deployment's pod names (`<name>-<10>-<5>`) are 31
 * characters for `react-ssr-host`.
 */
export const MAX_REPLICA_LENGTH = 42;
const REPLICA_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Each allow-listed header adds up to 256 characters to every access line (server/observe/access-log.ts). */
const MAX_LOGGED_HEADERS = 16;
/** Express's `trust proxy` setting: false, a hop count or a list of addresses/subnets. */

/** A bad value stops the process at boot, with this one line (never a stack). */
export class ConfigError extends HostError {
  override name = 'ConfigError';
  constructor(name: string, value: string, allowed: string) {
    super(500, `Invalid ${name}=${JSON.stringify(value)}: expected ${allowed}`, { stackless: true });
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || value < min || value > max) {
    throw new ConfigError(name, raw, `an integer from ${min} to ${max}`);
  }
  return value;
}

export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, raw, `one of ${allowed.join(', ')}`);
  }
  return raw as T;
}

export function secret(env: Env, name: string): string | undefined {
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

export function hostname(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!isValidHostname(raw)) throw new ConfigError(name, raw, 'a host name such as shop.example.com');
  return raw.toLowerCase();
}

const ORIGIN_EXAMPLE = 'an origin such as https://shop.example.com or http://localhost:3000 (scheme://host[:port], nothing after)';

/** An http(s) origin exactly as the URL parser serialises it, a trailing slash allowed. */
export function origin(env: Env, name: string): string | undefined {
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

/** A comma-separated list of origins, each as `origin()` accepts it. */
export function origins(env: Env, name: string): readonly string[] {
  return (env[name] ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => origin({ [name]: item }, name)!);
}

/** Bytes a session secret needs at least: an HMAC-SHA-256 key as long as its output (RFC 2104 §3). */
export const MIN_SESSION_SECRET_BYTES = 32;

/** Comma-separated secrets: the first signs, all verify (so a rotated one still reads old cookies). */
export function secrets(env: Env, name: string): readonly string[] | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const list = raw.split(',').map((item) => item.trim());
  for (const item of list) {
    if (Buffer.byteLength(item) < MIN_SESSION_SECRET_BYTES) {
      throw new ConfigError(name, '<redacted>', `secrets of at least ${MIN_SESSION_SECRET_BYTES} bytes, comma-separated, the newest first`);
    }
  }
  return list;
}

/** The host name of an origin, when it is one an error page may show. */
export function hostnameOf(publicOrigin: string | undefined): string | undefined {
  const name = publicOrigin === undefined ? undefined : new URL(publicOrigin).hostname;
  return name !== undefined && isValidHostname(name) ? name : undefined;
}

export function dsn(name: string, raw: string): string {
  try {
    const url = new URL(raw);
    const projectId = url.pathname.split('/').pop();
    if ((url.protocol === 'https:' || url.protocol === 'http:') && url.username && projectId && /^\d+$/.test(projectId)) return raw;
  } catch {
    // reported below
  }
  throw new ConfigError(name, raw, 'a Sentry DSN such as https://publickey@o0.ingest.sentry.io/123');
}

export function rate(env: Env, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!/^(0|1|0?\.\d+|1\.0+)$/.test(raw) || value < 0 || value > 1) throw new ConfigError(name, raw, 'a number from 0 to 1');
  return value;
}

export function flag(env: Env, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new ConfigError(name, raw, 'true or false');
}

export function release(env: Env): string {
  const raw = env.RELEASE;
  if (raw === undefined || raw === '') return 'react-ssr-host@dev';
  if (raw.length > MAX_RELEASE_LENGTH || !/^[\x21-\x7e]+$/.test(raw)) {
    throw new ConfigError('RELEASE', raw, `1 to ${MAX_RELEASE_LENGTH} printable ASCII characters without spaces, such as shop@1.4.0`);
  }
  return raw;
}

/**
 * REPLICA names this process on every log line; unset, the host name stands in (Kubernetes sets
 * HOSTNAME to the pod's name). A host name past the bound keeps its end, where Kubernetes puts
 * the pod's unique suffix; characters no host name has become '-'.
 */
export function replica(env: Env, hostName: string): string {
  const raw = env.REPLICA;
  if (raw === undefined || raw === '') {
    const name = (env.HOSTNAME || hostName).replace(/[^A-Za-z0-9._-]/g, '-').slice(-MAX_REPLICA_LENGTH);
    return name === '' ? 'unknown' : name;
  }
  if (raw.length > MAX_REPLICA_LENGTH || !REPLICA_NAME.test(raw)) {
    throw new ConfigError('REPLICA', raw, `1 to ${MAX_REPLICA_LENGTH} letters, digits, '.', '_' or '-', such as web-1`);
  }
  return raw;
}

/** RFC 9110 §5.1: a field name is a token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

export function headerNames(env: Env, name: string): readonly string[] {
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

/**
 * Where the server listens unless HOST says: in development loopback, as Vite's own dev server:
 * it serves the source tree, and its HMR socket listens beside it (server/assets/hmr-listener.ts),
 * for this machine's browser (HOST=0.0.0.0 opens both to the network). Elsewhere every interface:
 * a container's port is reached through whichever one its runtime maps.
 */
const DEV_HOST = '127.0.0.1';
const ANY_HOST = '0.0.0.0';

export function listenHost(env: Env, isDevelopment: boolean): string {
  return env.HOST || (isDevelopment ? DEV_HOST : ANY_HOST);
}

/**
 * An IP address to listen on. Metrics name routes, release and process internals: loopback by
 * default, so a scrape needs a sidecar or an explicit METRICS_HOST (0.0.0.0 for a pod's IP).
 * An address, not a host name, so what is exposed never depends on DNS at boot.
 */
export function listenAddress(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (isIP(raw) === 0) throw new ConfigError(name, raw, 'an IP address such as 127.0.0.1, or 0.0.0.0 for every interface');
  return raw;
}

export function absolutePath(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!raw.startsWith('/') || raw.includes('\0')) throw new ConfigError(name, raw, 'an absolute path such as /srv/assets');
  return raw;
}

/** SQLite's name for a private database in memory (https://sqlite.org/inmemorydb.html). */
const IN_MEMORY = ':memory:';

/**
 * The database file: `:memory:`, or a file path, relative to the working directory (the project
 * root under npm scripts, /app in the image) or absolute. A folder is refused here; a path that
 * cannot be opened stops the boot when it is opened (server/data/database.ts).
 */
export function databasePath(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  if (raw === IN_MEMORY) return raw;
  const file = basename(raw);
  if (raw.includes('\0') || raw.endsWith('/') || file === '.' || file === '..' || file === '') {
    throw new ConfigError(name, raw, `${IN_MEMORY} or a file path such as data/app.sqlite (not a folder)`);
  }
  return resolve(raw);
}
