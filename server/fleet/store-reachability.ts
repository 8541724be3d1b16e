import type { Logger } from 'pino';

// When the shared store's connection (redis-connection.ts) tells an operator Redis is gone, and
// when it is back: one rule, so "unreachable" is never said of a Redis that was only slow, and a
// "reachable again" follows every "unreachable" once Redis answers.
//
// Unreachable, one warn line, when either
//   - an attempt to connect fails: the first, or a reconnection after the connection dropped
//     (refused, reset, no handshake within the connect timeout, a refused password), or
//   - nothing has answered for STALLED_AFTER_MS while calls kept timing out: a Redis that holds
//     its connections open and answers nothing (stopped, swapping, a host frozen, a partition
//     with no reset).
// Reachable again, one info line, at the first sign Redis answers after that: the client's
// handshake on a new connection ('ready'), or any call's reply (an error reply too: Redis sent it).
//
// Not told, only counted (app_cache_store_failures_total): a call timing out while others are
// still answered within STALLED_AFTER_MS (a slow patch), and a connection dropped and made again
// at its first attempt (a Redis restarting its clients, an idle timeout), whose calls in between
// fall back. Neither leaves a state behind: the next outage is told as the first one was.

/**
 * A Redis that answers nothing for a second is out, not slow. Its slow patches (a slow command on
 * a shared Redis, an expiry cycle, a fork for a snapshot: tens of milliseconds per GB on common
 * hosts, Redis's "Diagnosing latency issues") are tens to hundreds of milliseconds, and each call
 * they fail is counted anyway. Short enough that the line comes while an operator is looking.
 */
export const STALLED_AFTER_MS = 1_000;
export const OUTAGE_MESSAGE = 'shared store unreachable: pages render without the cache, limits and proofs hold per replica';
export const RECOVERED_MESSAGE = 'shared store reachable again';

export interface StoreReachability {
  /** A call's reply arrived (a value or an error reply). */
  answered(): void;
  /** A call gave up waiting for its reply (REDIS_TIMEOUT_MS). */
  timedOut(): void;
  /** An attempt to connect failed. */
  attemptFailed(error: unknown): void;
  /** A connection is made: Redis answered its handshake. */
  connected(): void;
}

export function storeReachability(logger: Logger, now: () => number = Date.now): StoreReachability {
  let unreachable = false;
  /** When the calls' current run of timeouts began, with no reply since; undefined while Redis answers. */
  let stalledSince: number | undefined;

  const tellUnreachable = (reason: string) => {
    if (unreachable) return;
    unreachable = true;
    logger.warn({ error: { message: reason } }, OUTAGE_MESSAGE);
  };
  const answers = () => {
    stalledSince = undefined;
    if (!unreachable) return;
    unreachable = false;
    logger.info(RECOVERED_MESSAGE);
  };

  return {
    answered: answers,
    connected: answers,
    timedOut() {
      const at = now();
      stalledSince ??= at;
      if (at - stalledSince >= STALLED_AFTER_MS) tellUnreachable(`no answer for ${at - stalledSince} ms`);
    },
    attemptFailed(error) {
      tellUnreachable(error instanceof Error ? error.message : String(error));
    },
  };
}
