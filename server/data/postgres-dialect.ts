// Kysely on PostgreSQL through node-postgres's pool (`pg`, https://node-postgres.com/apis/pool):
// the replicas' shared database when DATABASE_URL is set. Every wait is bounded, so a database
// that is down or slow fails the query (a 503: ./availability.ts) and never holds a request.
import pg from 'pg';
import { PostgresDialect } from 'kysely';
import type { PostgresConfig } from '../config/postgres-config.ts';

/**
 * A server that answers nothing (a partition, a frozen host) never cancels the statement
 * itself: the client gives up this long after statement_timeout would have.
 */
const QUERY_TIMEOUT_SLACK_MS = 1_000;
/** node-postgres's message when query_timeout fires (node_modules/pg/lib/client.js). */
const QUERY_READ_TIMEOUT = 'Query read timeout';
/** An idle connection is closed after this: a replica at rest holds few of the server's slots. */
const IDLE_TIMEOUT_MS = 30_000;
/** Shown in pg_stat_activity, so a DBA sees whose connections these are. */
const APPLICATION_NAME = 'react-ssr-host';
/** PostgreSQL's int8 (bigint, count(*)). */
const INT8_OID = 20;

/**
 * int8 as a number, as node:sqlite gives an INTEGER, so app code reads the same type from both
 * engines; past 2^53 a number would be wrong, and that is refused as node:sqlite refuses it.
 */
function int8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`int8 ${text} is beyond a JavaScript number's exact range`);
  return value;
}

/** node-postgres's own parsers (https://node-postgres.com/features/queries#types), int8's replaced. */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? int8
      : (pg.types.getTypeParser(oid, format ?? 'text') as unknown)) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * When query_timeout fires, node-postgres fails the query but leaves the connection waiting for
 * the answer it gave up on, and the pool hands that connection out again, to time out again
 * (brianc/node-postgres#3399): every request of the replica would answer 503 until the kernel
 * dropped the socket. Ending it marks it unusable (`end()` sets its ending flag at once), so the
 * pool discards it as it comes back, and the next query gets a new connection.
 */
function endOnReadTimeout(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const answer = query(...args);
    if (answer instanceof Promise) {
      answer.catch((error: unknown) => {
        if (error instanceof Error && error.message === QUERY_READ_TIMEOUT) client.end().catch(() => {});
      });
    }
    return answer;
  }) as typeof client.query;
}

export function createPool(config: PostgresConfig, onIdleError: (error: Error) => void): pg.Pool {
  const pool = new pg.Pool({
    connectionString: config.url,
    max: config.poolMax,
    connectionTimeoutMillis: config.connectTimeoutMs,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    statement_timeout: config.statementTimeoutMs,
    query_timeout: config.statementTimeoutMs + QUERY_TIMEOUT_SLACK_MS,
    application_name: APPLICATION_NAME,
    // TCP keepalive: the kernel finds a peer that vanished without a reset (a partition) on an idle connection too.
    keepAlive: true,
    types,
  });
  // A pooled connection the server dropped while idle (a restart, a failover): without a
  // listener the pool's 'error' would end the process. The pool replaces it on the next query.
  pool.on('error', onIdleError);
  pool.on('connect', (client) => {
    // One dropped while checked out between two queries emits 'error' on the client itself, which
    // the pool does not listen to then: the outage test's server ended on it. Its next query fails
    // (a 503) and the pool discards it when it comes back, so the listener has nothing more to do.
    client.on('error', () => {});
    endOnReadTimeout(client);
  });
  return pool;
}

export const postgresDialect = (pool: pg.Pool) => new PostgresDialect({ pool });
