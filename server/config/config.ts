import { hostname as osHostname } from 'node:os';
import { join } from 'node:path';
import {
  absolutePath,
  databasePath,
  flag,
  headerNames,
  hostname,
  hostnameOf,
  integer,
  listenAddress,
  listenHost,
  oneOf,
  origin,
  origins,
  release,
  replica,
  secret,
  secrets,
  type Env,
} from './config-values.ts';
import { trustProxy, type TrustProxy } from './trust-proxy.ts';

import { bodyLimits, type BodyLimits } from './body-limits.ts';
import { logFormat, type LogFormat } from './log-format.ts';
import { cacheConfig, type CacheConfig } from './cache-config.ts';
import { cspSources, type CspSources } from './csp-sources.ts';
import { sentry, type SentryConfig } from './sentry-config.ts';
import { postgresConfig, type PostgresConfig } from './postgres-config.ts';
import { otelConfig, type OtelConfig } from './otel-config.ts';

export type { SentryConfig };

export { ConfigError, isValidHostname } from './config-values.ts';
export { TRUST_PROXY_ALLOWED, type TrustProxy } from './trust-proxy.ts';

// Environment → typed, frozen configuration. Read once at boot; a bad value stops the
// process before it listens, with one line naming the variable, the value and what is allowed.

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const NODE_ENVS = ['development', 'production', 'test'] as const;

/** React Router's default; long enough for slow data, short enough never to hold a socket. */
export const DEFAULT_STREAM_TIMEOUT_MS = 5_000;
/**
 * Docker and podman send SIGKILL 10 s after SIGTERM by default: 2 s of readiness 503 (a load
 * balancer checking every second marks a replica down after two failed checks), 5 s of
 * draining, up to 2 s of flushing Sentry and up to 0.5 s of writing queued log lines
 * (log-destination.ts) end inside that. Kubernetes waits 30 s by default
 * (terminationGracePeriodSeconds); deploy/kubernetes/ sets longer values to match.
 */
export const DEFAULT_SHUTDOWN_DELAY_MS = 2_000;
export const DEFAULT_SHUTDOWN_GRACE_MS = 5_000;
/** Vite's own default HMR port. */
export const DEFAULT_HMR_PORT = 24_678;
/**
 * What may wait for a log reader that stops reading: about 650 access lines of 400 bytes, most
 * of a second of one busy process. At 1 MiB the soak's abusive clients (a pipelining flood of
 * 104,000 requests) left the process 10–13% above its warmed-up RSS, past the soak's 10% bound,
 * and still there 8 s later; at 256 KiB and 32 KiB, below it (docs/logs.md, "When stdout is not
 * read"). A longer pause costs counted lines, never memory.
 */
export const DEFAULT_LOG_BUFFER_BYTES = 256 * 1024;
/** Four failure lines at their 8 KB bound (log-bound.ts), so the error reserve holds at least one. */
export const MIN_LOG_BUFFER_BYTES = 32 * 1024;
/** Far past any reader's pause worth waiting for; a typo of a few digits more should not take the memory. */
export const MAX_LOG_BUFFER_BYTES = 256 * 1024 * 1024;
/**
 * The largest body the host takes (1 MiB of multipart, server/writes/request-body.ts) arrives in about
 * 11 s over slow 4G's upload (750 kbit/s, Lighthouse's mobile throttling): 15 s leaves a margin.
 */
export const DEFAULT_BODY_TIMEOUT_MS = 15_000;
/**
 * Node's request timeout (30 s, server/edge/http-server.ts) counts from the request's first byte: up
 * to 10 s of headers and a check every second come before the body is read. Past 19 s Node's
 * own 408, under a second request id, could come first.
 */
export const MAX_BODY_TIMEOUT_MS = 19_000;
/**
 * Responses compressing at once. The bench loads 32 connections (tools/bench/run.ts) and a
 * browser may fetch a document and its navigation data together: 64 keeps both compressed.
 * A brotli encoder fed a 150 KB page that its client does not read holds about 0.9 MB, gzip's
 * about 0.45 MB, the page included (docs/performance.md, "Compression under abusive clients"):
 * 64 of them, under 60 MB.
 */
export const DEFAULT_COMPRESS_MAX_CONCURRENT = 64;

/** Under the working directory's data/, which .gitignore ignores and the image makes writable (Dockerfile). */
export const DEFAULT_DATABASE_PATH = 'data/app.sqlite';
/** Where actions keep files (`context.files`), beside the database. */
export const DEFAULT_FILES_DIR = 'data/files';
/**
 * Uploads in flight, each request's in a folder of its own (server/writes/form-uploads.ts): beside
 * the database, on disk and the process's own. Not the system's temporary folder: another user
 * could make its folder first, and /tmp is a tmpfs (memory) in the deploy files.
 */
export const DEFAULT_UPLOAD_DIR = 'data/uploads';
/** Two weeks past its last use, as the cookie lasted before sessions were held on the server (Rails' and Django's defaults are close). */
export const DEFAULT_SESSION_IDLE_TIMEOUT_S = 14 * 24 * 60 * 60;
/** Thirty days past its start, however often it is used: a stolen id stops working in the end. */
export const DEFAULT_SESSION_ABSOLUTE_TIMEOUT_S = 30 * 24 * 60 * 60;
/** A year: past it a session outlives most credentials it could stand for. */
const MAX_SESSION_TIMEOUT_S = 365 * 24 * 60 * 60;

/**
 * How long the app's failure hook (an exporter's network call, typically) may keep its promise
 * unsettled before one warn line names it: the stream timeout's 5 s, the longest the host
 * waits on anything else a request starts. The answer never waits for it.
 */
export const DEFAULT_FAILURE_HOOK_TIMEOUT_MS = 5_000;

export type LogLevel = (typeof LOG_LEVELS)[number];
export type NodeEnv = (typeof NODE_ENVS)[number];

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly nodeEnv: NodeEnv;
  readonly isProduction: boolean;
  readonly logLevel: LogLevel;
  /** `pretty` by default in development, else `json`; always `json` in production (log-format.ts). */
  readonly logFormat: LogFormat;
  /** Bytes of log lines held while stdout is not read; past it lines are dropped and counted (log-destination.ts). */
  readonly logBufferBytes: number;
  readonly streamTimeoutMs: number;
  /** A request body still arriving after this is answered 408 (server/edge/body-limit.ts). */
  readonly bodyTimeoutMs: number;
  /** An action's body: the defaults a route's own `bodyLimits` replace (server/config/body-limits.ts). */
  readonly body: BodyLimits;
  /** Stored pages: memory bound, Redis, the revalidation endpoint's token (server/config/cache-config.ts). */
  readonly cache: CacheConfig;
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
   * request's Host and trusted protocol stand in for it (server/edge/request-origin.ts).
   */
  readonly publicOrigin: string | undefined;
  /** Other origins whose pages may post to this site (forms on a sister site); the site's own always may. */
  readonly allowedOrigins: readonly string[];
  /** Whether documents, navigation data and JSON are compressed on the fly (off where the balancer compresses). */
  readonly compressResponses: boolean;
  /** How many responses may be compressing at once; past it, answers go plain (server/assets/compression-slots.ts). */
  readonly compressMaxConcurrent: number;
  /** Development only: the port of Vite's HMR WebSocket (its default, 24678, unless HMR_PORT says). */
  readonly hmrPort: number;
  /** Session cookie secrets, newest first; undefined: a random one per process (server/writes/session.ts). */
  readonly sessionSecrets: readonly string[] | undefined;
  /** How long a session lasts: past its last use, and past its start whatever its use (server/writes/session.ts). */
  readonly session: { readonly idleTimeoutS: number; readonly absoluteTimeoutS: number };
  /** Strict-Transport-Security max-age in seconds; 0 sends no HSTS header. */
  readonly hstsMaxAge: number;
  /** Origins the app adds to the Content-Security-Policy, per directive (server/config/csp-sources.ts). */
  readonly csp: CspSources;
  readonly release: string;
  /** This process's name on every log line: REPLICA, else the pod's or host's name, bounded. */
  readonly replica: string;
  /** How long the app's failure hook's promise may take before one warn line (server/failures/failure-hook.ts). */
  readonly failureHookTimeoutMs: number;
  /** A directory every replica adds its assets to and serves from (see shared-assets.ts). */
  readonly sharedAssetsDir: string | undefined;
  /**
   * Production: the folder of the app build to serve (its client/ and server/, as `npm run build`
   * writes dist/), instead of the one beside the host's process: one host build serving another
   * app's build (the tests' fixture apps do: tests/apps/). Unset: dist/.
   */
  readonly appBuild: string | undefined;
  /** Port of the separate /metrics server; undefined: no metrics at all. */
  readonly metricsPort: number | undefined;
  /** Address the /metrics server listens on: loopback unless METRICS_HOST says otherwise. */
  readonly metricsHost: string;
  /** Request headers the access line carries (lower case); empty by default. */
  readonly logRequestHeaders: readonly string[];
  /** The replica's SQLite database: an absolute path, or `:memory:` (server/data/database.ts); used when `postgres` is undefined. */
  readonly databasePath: string;
  /** Where an upload's files are written while its request lasts. */
  readonly uploadDir: string;
  /** Where `context.files` keeps the files an action keeps: a folder of this replica's. */
  readonly filesDir: string;
  /** DATABASE_URL and its pool: the app's data in PostgreSQL, shared by every replica; undefined: SQLite. */
  readonly postgres: PostgresConfig | undefined;
  /** Undefined when SENTRY_DSN is not set: then nothing of Sentry is loaded or sent. */
  readonly sentry: SentryConfig | undefined;
  /** Undefined when no OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT): then nothing of OpenTelemetry's SDK is loaded. */
  readonly otel: OtelConfig | undefined;
}

export function loadConfig(env: Env): Config {
  const nodeEnv = oneOf(env, 'NODE_ENV', NODE_ENVS, 'development');
  const isProduction = nodeEnv === 'production';
  const publicOrigin = origin(env, 'PUBLIC_ORIGIN');
  return Object.freeze({
    port: integer(env, 'PORT', 3000, 0, 65_535),
    host: listenHost(env, nodeEnv === 'development'),
    nodeEnv,
    isProduction,
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: logFormat(env, 'LOG_FORMAT', nodeEnv),
    logBufferBytes: integer(env, 'LOG_BUFFER_BYTES', DEFAULT_LOG_BUFFER_BYTES, MIN_LOG_BUFFER_BYTES, MAX_LOG_BUFFER_BYTES),
    streamTimeoutMs: integer(env, 'STREAM_TIMEOUT_MS', DEFAULT_STREAM_TIMEOUT_MS, 100, 600_000),
    bodyTimeoutMs: integer(env, 'BODY_TIMEOUT_MS', DEFAULT_BODY_TIMEOUT_MS, 100, MAX_BODY_TIMEOUT_MS),
    body: bodyLimits(env),
    cache: cacheConfig(env),
    shutdownDelayMs: integer(env, 'SHUTDOWN_DELAY_MS', DEFAULT_SHUTDOWN_DELAY_MS, 0, 600_000),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', DEFAULT_SHUTDOWN_GRACE_MS, 0, 600_000),
    digestKey: secret(env, 'DIGEST_KEY'),
    diagnosticsToken: secret(env, 'DIAGNOSTICS_TOKEN'),
    trustProxy: trustProxy(env),
    publicHostname: hostname(env, 'PUBLIC_HOSTNAME') ?? hostnameOf(publicOrigin),
    publicOrigin,
    allowedOrigins: origins(env, 'ALLOWED_ORIGINS'),
    sessionSecrets: secrets(env, 'SESSION_SECRET'),
    session: Object.freeze({
      idleTimeoutS: integer(env, 'SESSION_IDLE_TIMEOUT_S', DEFAULT_SESSION_IDLE_TIMEOUT_S, 60, MAX_SESSION_TIMEOUT_S),
      absoluteTimeoutS: integer(env, 'SESSION_ABSOLUTE_TIMEOUT_S', DEFAULT_SESSION_ABSOLUTE_TIMEOUT_S, 60, MAX_SESSION_TIMEOUT_S),
    }),
    hmrPort: integer(env, 'HMR_PORT', DEFAULT_HMR_PORT, 1, 65_535),
    compressResponses: env.COMPRESS_RESPONSES === undefined || env.COMPRESS_RESPONSES === '' ? true : flag(env, 'COMPRESS_RESPONSES'),
    compressMaxConcurrent: integer(env, 'COMPRESS_MAX_CONCURRENT', DEFAULT_COMPRESS_MAX_CONCURRENT, 1, 100_000),
    hstsMaxAge: integer(env, 'HSTS_MAX_AGE', 0, 0, 63_072_000),
    csp: cspSources(env),
    release: release(env),
    replica: replica(env, osHostname()),
    failureHookTimeoutMs: integer(env, 'FAILURE_HOOK_TIMEOUT_MS', DEFAULT_FAILURE_HOOK_TIMEOUT_MS, 1, 60_000),
    logRequestHeaders: headerNames(env, 'LOG_REQUEST_HEADERS'),
    sharedAssetsDir: absolutePath(env, 'SHARED_ASSETS_DIR'),
    appBuild: absolutePath(env, 'APP_BUILD'),
    metricsPort: env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0, 0, 65_535) : undefined,
    metricsHost: listenAddress(env, 'METRICS_HOST', '127.0.0.1'),
    databasePath: databasePath(env, 'DATABASE_PATH', DEFAULT_DATABASE_PATH),
    postgres: postgresConfig(env),
    uploadDir: absolutePath(env, 'UPLOAD_DIR') ?? join(process.cwd(), DEFAULT_UPLOAD_DIR),
    filesDir: absolutePath(env, 'FILES_DIR') ?? join(process.cwd(), DEFAULT_FILES_DIR),
    sentry: Object.freeze(sentry(env, nodeEnv)),
    otel: otelConfig(env),
  });
}
