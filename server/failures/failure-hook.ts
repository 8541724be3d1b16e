import type { Logger } from 'pino';
import type { FailureEvent, OnFailure, RecordedFailure } from '../../shared/failure-event.ts';
import { LINE_LEVEL } from '../observe/log-levels.ts';
import { serializeError } from './serialize-error.ts';
import { flushLogs } from '../observe/logger.ts';

// The app's failure hook, called so that nothing it does can hurt the answer or the log: after
// the failure line, never in the answer's way; a throw, a rejection or a promise still pending
// after FAILURE_HOOK_TIMEOUT_MS is one warn line, never a second failure (a failure of the hook
// recorded as a failure would call the hook again). A synchronous hang cannot be caught: it
// holds the event loop like any other code in the process (docs/operating.md, "The failure hook").

/** Calls the hook; resolves when it settled or timed out, never rejects (a process fault waits on it before exit). */
export type CallFailureHook = (failure: RecordedFailure) => Promise<void>;

export const HOOK_THREW_MESSAGE = 'the failure hook threw';
export const HOOK_TIMED_OUT_MESSAGE = 'the failure hook did not settle in time';
export const HOOK_BUSY_MESSAGE = 'the failure hook has too many calls in flight: failures are counted, not hooked, until one settles';
export const HOOK_RESUMED_MESSAGE = 'the failure hook is called again';

/**
 * Hook calls whose promise has not settled, past their timeout or not. A hook that ignores its
 * signal keeps what it opened (a socket to a stalled sink) until it settles; past this many, a
 * failure is counted instead of hooked, so those cannot grow without bound under a failure storm.
 */
export const MAX_HOOK_CALLS_IN_FLIGHT = 64;
/**
 * While the cap holds, the busy line is said again at most this often, with the failures not
 * hooked so far: calls that never settle hold the cap for good, and the log must not go quiet on it.
 */
export const HOOK_BUSY_REMINDER_MS = 60_000;

/** What every event carries besides the failure: whose lines these are. */
export interface HookContext {
  release: string;
  replica: string;
}

export function isolateFailureHook(
  hook: OnFailure | undefined,
  logger: Logger,
  timeoutMs: number,
  context: HookContext,
  maxInFlight = MAX_HOOK_CALLS_IN_FLIGHT,
  now: () => number = Date.now,
): CallFailureHook | undefined {
  if (hook === undefined) return undefined;
  const warn = (event: FailureEvent, fields: object, message: string) =>
    logger[LINE_LEVEL.failureHook]({ digest: event.digest, reqId: event.reqId, kind: event.kind, ...fields }, message);
  let inFlight = 0;
  // Failures not hooked since the last resumed line. The busy line is said at most once each
  // HOOK_BUSY_REMINDER_MS, and a resumed line only after a busy one: a storm held at the cap,
  // its calls settling one by one, writes two lines a minute, not two a failure.
  let skipped = 0;
  let busySaidAt = -Infinity;
  let busyTold = false;
  const settledOne = () => {
    inFlight -= 1;
    if (!busyTold) return;
    logger[LINE_LEVEL.failureHook]({ skipped, maxInFlight }, HOOK_RESUMED_MESSAGE);
    skipped = 0;
    busyTold = false;
  };
  return (failure) => {
    if (inFlight >= maxInFlight) {
      skipped += 1;
      if (now() - busySaidAt >= HOOK_BUSY_REMINDER_MS) {
        logger[LINE_LEVEL.failureHook]({ digest: failure.digest, reqId: failure.reqId, maxInFlight, skipped }, HOOK_BUSY_MESSAGE);
        busySaidAt = now();
        busyTold = true;
      }
      return Promise.resolve();
    }
    // Aborted when the host stops waiting, so what the hook started with it ends then too.
    const cancel = new AbortController();
    const event: FailureEvent = { ...failure, ...context, time: new Date().toISOString(), signal: cancel.signal };
    let settled: unknown;
    try {
      settled = hook(event);
    } catch (error) {
      warn(event, { hookError: serializeError(error) }, HOOK_THREW_MESSAGE);
      return Promise.resolve();
    }
    if (!isThenable(settled)) return Promise.resolve();
    // Adopted once: a lazy thenable (a query builder's) runs once however many wait on it.
    const outcome = Promise.resolve(settled);
    inFlight += 1;
    // Counted until the hook's own promise settles, whenever that is: the host's wait is bounded, the hook's work is not.
    outcome.then(settledOne, settledOne);
    return new Promise<void>((resolve) => {
      let done = false;
      const finish = () => {
        done = true;
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        warn(event, { timeoutMs }, HOOK_TIMED_OUT_MESSAGE);
        cancel.abort(new Error(`the failure hook did not settle in ${timeoutMs} ms`));
        finish();
      }, timeoutMs);
      // Always handled, late or not: an unhandled rejection would be a process fault.
      outcome.then(
        () => !done && finish(),
        (error: unknown) => {
          if (done) return;
          warn(event, { hookError: serializeError(error) }, HOOK_THREW_MESSAGE);
          finish();
        },
      );
    });
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * The app's failure hook: `onFailure` from its module (client/instrumentation.server.ts,
 * docs/operating.md, "The failure hook"), loaded once, before anything can fail. A module that
 * fails to load, or an `onFailure` that is not a function, stops the boot with one line: a team
 * that wrote a hook expects it to run.
 */
export async function loadFailureHook(logger: Logger, module: string, load: () => Promise<unknown>): Promise<OnFailure | undefined> {
  try {
    // An app without the module has no hook (server/assets/app-build.ts loads it only where it is).
    const { onFailure } = ((await load()) ?? {}) as { onFailure?: unknown };
    if (onFailure === undefined) return undefined;
    if (typeof onFailure !== 'function') throw new TypeError(`onFailure is a ${typeof onFailure}, not a function`);
    logger[LINE_LEVEL.lifecycle](`failure hook loaded from ${module}`);
    return onFailure as OnFailure;
  } catch (error) {
    logger[LINE_LEVEL.bootFailure]({ error: serializeError(error) }, `cannot load the failure hook from ${module}`);
    await flushLogs(logger);
    process.exit(1);
  }
}
