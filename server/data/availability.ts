// A database that is down or slow is a failure like any other: the query throws a
// DatabaseUnavailableError (503, with the driver's error as its cause), which the request's
// error path turns into a digest, one failure line and the error page, and the outage itself is
// told once (warn) and its end once (info), as the shared store's is (server/fleet/store-reachability.ts).
// Kysely's driver is wrapped so every query and transaction passes through here
// (its Driver interface: node_modules/kysely/dist/driver/driver.d.ts).
import type { Logger } from 'pino';
import type { DatabaseConnection, Driver } from 'kysely';
import { HostError } from '../failures/errors.ts';
import { isInstance, readProperty } from '../failures/thrown-value.ts';

export const OUTAGE_MESSAGE = 'database unreachable: requests that need it answer 503';
export const RECOVERED_MESSAGE = 'database reachable again';
/** A client may try again this much later: an outage's first seconds are often a restart or a failover. */
const RETRY_AFTER_S = '5';

export class DatabaseUnavailableError extends HostError {
  override name = 'DatabaseUnavailableError';
  constructor(reason: string, cause: unknown) {
    // Stackless: one digest for one outage on every replica and route, whatever query met it.
    super(503, `database unavailable: ${reason}`, { stackless: true, cause, headers: { 'retry-after': RETRY_AFTER_S } });
  }
}

/** Node's socket errors for a server that is not there (refused, unreachable, no such name). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
/**
 * PostgreSQL's SQLSTATEs for a server that cannot serve (https://www.postgresql.org/docs/15/errcodes-appendix.html):
 * class 08 (connection exception), shutting down or starting, too many connections, and a
 * statement cancelled by statement_timeout (query_canceled).
 */
const POSTGRES_UNAVAILABLE = /^(08...|57P0[123]|53300)$/;
const POSTGRES_STATEMENT_TIMEOUT = '57014';
/** node-postgres's own messages when it gives up (pg-pool's connection timeout, query_timeout, a dropped connection). */
const POSTGRES_CLIENT_MESSAGES =
  /^(timeout exceeded when trying to connect|Query read timeout|Connection terminated|Client has encountered a connection error)/;
/** SQLite's result codes for a file another process holds (https://sqlite.org/rescode.html): 5 SQLITE_BUSY, 6 SQLITE_LOCKED. */
const SQLITE_BUSY_CODES = new Set([5, 6]);

/** Why this error means the database cannot serve now, or undefined for an error of the query itself. */
export function unavailability(error: unknown): string | undefined {
  const code = readProperty(error, 'code');
  const message = readProperty(error, 'message');
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return 'no connection';
  if (code === POSTGRES_STATEMENT_TIMEOUT) return 'statement timeout';
  if (typeof code === 'string' && POSTGRES_UNAVAILABLE.test(code)) return 'no connection';
  if (typeof message === 'string' && POSTGRES_CLIENT_MESSAGES.test(message))
    return message.startsWith('Query') ? 'statement timeout' : 'no connection';
  const errcode = readProperty(error, 'errcode');
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number' && SQLITE_BUSY_CODES.has(errcode & 0xff)) return 'busy';
  // node-postgres wraps some in an AggregateError (one per address tried).
  if (isInstance(error, AggregateError)) return error.errors.map(unavailability).find((reason) => reason !== undefined);
  return undefined;
}

export interface Availability {
  /** The error to throw for what the driver threw: a DatabaseUnavailableError, or the error as it was. */
  failed(error: unknown): unknown;
  /** A query was answered: the database serves. */
  answered(): void;
}

export function availability(logger: Logger, where: string): Availability {
  let down = false;
  return {
    failed(error) {
      const reason = unavailability(error);
      if (reason === undefined) return error;
      if (!down) {
        down = true;
        logger.warn({ database: where, error: { message: readProperty(error, 'message') } }, OUTAGE_MESSAGE);
      }
      return new DatabaseUnavailableError(reason, error);
    },
    answered() {
      if (!down) return;
      down = false;
      logger.info({ database: where }, RECOVERED_MESSAGE);
    },
  };
}

/** Kysely's driver with every call passing through `watch`. */
export function watchedDriver(inner: Driver, watch: Availability): Driver {
  const own = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const raw = (connection: DatabaseConnection) => own.get(connection) ?? connection;
  const guard = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw watch.failed(error);
    }
  };
  return {
    init: (options) => guard(() => inner.init(options)),
    async acquireConnection(options) {
      const connection = await guard(() => inner.acquireConnection(options));
      const watched: DatabaseConnection = {
        async executeQuery<R>(
          query: Parameters<DatabaseConnection['executeQuery']>[0],
          queryOptions?: Parameters<DatabaseConnection['executeQuery']>[1],
        ) {
          const result = await guard(() => connection.executeQuery<R>(query, queryOptions));
          watch.answered();
          return result;
        },
        streamQuery: (query, chunkSize, queryOptions) => connection.streamQuery(query, chunkSize, queryOptions),
      };
      own.set(watched, connection);
      return watched;
    },
    beginTransaction: (connection, settings) => guard(() => inner.beginTransaction(raw(connection), settings)),
    commitTransaction: (connection) => guard(() => inner.commitTransaction(raw(connection))),
    rollbackTransaction: (connection) => guard(() => inner.rollbackTransaction(raw(connection))),
    ...(inner.savepoint && { savepoint: (connection, name, compile) => guard(() => inner.savepoint!(raw(connection), name, compile)) }),
    ...(inner.rollbackToSavepoint && {
      rollbackToSavepoint: (connection, name, compile) => guard(() => inner.rollbackToSavepoint!(raw(connection), name, compile)),
    }),
    ...(inner.releaseSavepoint && {
      releaseSavepoint: (connection, name, compile) => guard(() => inner.releaseSavepoint!(raw(connection), name, compile)),
    }),
    releaseConnection: (connection, options) => inner.releaseConnection(raw(connection), options),
    destroy: (options) => inner.destroy(options),
  };
}
