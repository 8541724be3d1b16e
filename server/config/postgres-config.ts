// DATABASE_URL and its pool: when set, the app's data lives in PostgreSQL and every replica
// shares it (server/data/postgres-dialect.ts, docs/data.md); unset, it is the replica's own
// SQLite file at DATABASE_PATH. Read once at boot, refused there when malformed.
import { ConfigError, integer, type Env } from './config-values.ts';

export interface PostgresConfig {
  /** As written (it may carry a password: never logged; `where` names the server instead). */
  readonly url: string;
  /** host:port/database, for log lines and boot messages. */
  readonly where: string;
  /** Connections this replica opens at most: replicas × this stays under the server's max_connections. */
  readonly poolMax: number;
  /** How long a query waits for a connection (a new one, or one of the pool's to come free) before it is a 503. */
  readonly connectTimeoutMs: number;
  /** How long one statement may run before PostgreSQL cancels it, a 503 too. */
  readonly statementTimeoutMs: number;
}

/**
 * node-postgres's own default (https://node-postgres.com/apis/pool): ten connections a replica,
 * so four replicas stay well under PostgreSQL's default max_connections of 100.
 */
export const DEFAULT_DATABASE_POOL_MAX = 10;
/** A connection on the same network takes milliseconds; two seconds of none is an outage, not a slow patch. */
export const DEFAULT_DATABASE_CONNECT_TIMEOUT_MS = 2_000;
/**
 * Within the request's deadline (STREAM_TIMEOUT_MS, 10 s by default): a statement still running
 * after 5 s serves nobody, and cancelling it gives its connection back.
 */
export const DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS = 5_000;

const HINT = 'a URL such as postgres://user:password@db:5432/app';

function databaseUrl(env: Env): URL | undefined {
  const raw = env.DATABASE_URL;
  if (raw === undefined || raw === '') return undefined;
  try {
    const url = new URL(raw);
    if ((url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '') return url;
  } catch {
    // reported below, without the value: it may carry a password
  }
  throw new ConfigError('DATABASE_URL', '<redacted>', HINT);
}

export function postgresConfig(env: Env): PostgresConfig | undefined {
  const url = databaseUrl(env);
  if (url === undefined) return undefined;
  return Object.freeze({
    url: env.DATABASE_URL!,
    where: `${url.hostname}:${url.port || '5432'}${url.pathname}`,
    poolMax: integer(env, 'DATABASE_POOL_MAX', DEFAULT_DATABASE_POOL_MAX, 1, 1_000),
    connectTimeoutMs: integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', DEFAULT_DATABASE_CONNECT_TIMEOUT_MS, 100, 60_000),
    statementTimeoutMs: integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS, 100, 600_000),
  });
}
