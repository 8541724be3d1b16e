// A database that is down or slow is a failure like any other: the query throws a
// DatabaseUnavailableError (503, the driver's words as its detail), which the request's
// error path turns into a digest, one failure line and the error page. An outage (no connection
// to be had) is told once (warn) and its end once (info), at the first answer after it, as the
// shared store's is (server/fleet/store-reachability.ts); a slow statement or a full pool is a
// 503 too but no outage, so a busy database never flaps between the two lines. Every query
// passes through here (./watched-driver.ts).
import type { Logger } from 'pino';
import { HostError } from '../failures/errors.ts';
import { isInstance, readProperty } from '../failures/thrown-value.ts';

export const OUTAGE_MESSAGE = 'database unreachable: requests that need it answer 503';
export const RECOVERED_MESSAGE = 'database reachable again';
/** A client may try again this much later: an outage's first seconds are often a restart or a failover. */
const RETRY_AFTER_S = '5';

export class DatabaseUnavailableError extends HostError {
  override name = 'DatabaseUnavailableError';
  constructor(reason: Unavailability, driverError: unknown) {
    // One digest for one outage on every replica and route, whatever query met it and however the
    // driver said it (refused, then reset, then a dropped connection): stackless, and the driver's
    // words are its detail, on the failure line but never hashed (server/failures/digest.ts).
    super(503, `database unavailable: ${reason}`, {
      stackless: true,
      detail: String(readProperty(driverError, 'message') ?? driverError),
      headers: { 'retry-after': RETRY_AFTER_S },
    });
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
 * PostgreSQL's SQLSTATEs (https://www.postgresql.org/docs/15/errcodes-appendix.html): class 08
 * (connection exception) and a server shutting down or starting are no connection; a statement
 * cancelled by statement_timeout (query_canceled) is a slow one; too many connections, a busy one.
 */
const POSTGRES_UNAVAILABLE = /^(08...|57P0[123])$/;
const POSTGRES_STATEMENT_TIMEOUT = '57014';
const POSTGRES_TOO_MANY_CONNECTIONS = '53300';
/** node-postgres's own messages when it gives up (query_timeout, a dropped connection, a handshake that never finished). */
const POSTGRES_CLIENT_MESSAGES = /^(Query read timeout|Connection terminated|Client has encountered a connection error)/;
/** pg-pool's message when no connection came free within connectionTimeoutMillis: the pool is full, or the server slow to accept. */
const POOL_WAIT_TIMEOUT = 'timeout exceeded when trying to connect';
/** SQLite's result codes for a file another process holds (https://sqlite.org/rescode.html): 5 SQLITE_BUSY, 6 SQLITE_LOCKED. */
const SQLITE_BUSY_CODES = new Set([5, 6]);
/** An extended SQLite result code's low byte is its primary code (https://sqlite.org/rescode.html#primary_result_codes_versus_extended_result_codes). */
const SQLITE_PRIMARY_CODE_MASK = 0xff;

/** Why the database cannot serve now: only `no connection` is an outage. */
export type Unavailability = 'no connection' | 'statement timeout' | 'busy';

/** Why this error means the database cannot serve now, or undefined for an error of the query itself. */
export function unavailability(error: unknown): Unavailability | undefined {
  const code = readProperty(error, 'code');
  const message = readProperty(error, 'message');
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return 'no connection';
  if (code === POSTGRES_STATEMENT_TIMEOUT) return 'statement timeout';
  if (code === POSTGRES_TOO_MANY_CONNECTIONS || message === POOL_WAIT_TIMEOUT) return 'busy';
  if (typeof code === 'string' && POSTGRES_UNAVAILABLE.test(code)) return 'no connection';
  if (typeof message === 'string' && POSTGRES_CLIENT_MESSAGES.test(message))
    return message.startsWith('Query') ? 'statement timeout' : 'no connection';
  const errcode = readProperty(error, 'errcode');
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number' && SQLITE_BUSY_CODES.has(errcode & SQLITE_PRIMARY_CODE_MASK))
    return 'busy';
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
  const answered = () => {
    if (!down) return;
    down = false;
    logger.info({ database: where }, RECOVERED_MESSAGE);
  };
  return {
    failed(error) {
      const reason = unavailability(error);
      // An error of the query itself (a constraint, a syntax error): the database answered it.
      if (reason === undefined) return (answered(), error);
      if (reason === 'no connection' && !down) {
        down = true;
        logger.warn({ database: where, error: { message: readProperty(error, 'message') } }, OUTAGE_MESSAGE);
      }
      return new DatabaseUnavailableError(reason, error);
    },
    answered,
  };
}
