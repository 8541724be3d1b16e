import type { Logger } from 'pino';
import type { RevalidateTarget } from '../../shared/host-context.ts';
import type { Invalidated } from './cache-store.ts';

// An invalidation the shared store did not confirm (Redis slow or away: docs/caching.md,
// "Dropping entries") is tried again here, a bounded number of times with back-off, so a page
// taken down does not stay up because Redis paused once; giving up is one line. The caller
// learns it was not confirmed at once (POST /_revalidate answers 503 and the webhook retries too).

/** Tries after the first: 0.5, 1, 2, 4 and 8 s apart, about 15 s in all, longer than a Redis failover or a GC pause. */
export const REVALIDATE_RETRIES = 5;
const FIRST_RETRY_MS = 500;
/** Targets waiting for a retry at once; past it, a new one is given up at once (and said). */
const MAX_PENDING = 1_000;
export const GAVE_UP_MESSAGE = 'revalidation not confirmed by the shared store: gave up';

/** `invalidate`: one try, across the fleet; `firstRetryMs`: tests shorten the wait. */
export function createRevalidator(
  invalidate: (target: RevalidateTarget) => Promise<Invalidated>,
  logger: Logger,
  firstRetryMs = FIRST_RETRY_MS,
) {
  const pending = new Set<string>();

  function retry(target: RevalidateTarget, key: string, attempt: number): void {
    const timer = setTimeout(
      () => {
        void invalidate(target)
          .catch((): Invalidated => ({ dropped: 0, confirmed: false }))
          .then(({ confirmed }) => {
            if (confirmed) return void pending.delete(key);
            if (attempt < REVALIDATE_RETRIES) return retry(target, key, attempt + 1);
            pending.delete(key);
            logger.error({ target, attempts: attempt + 1 }, GAVE_UP_MESSAGE);
          });
      },
      firstRetryMs * 2 ** (attempt - 1),
    );
    // A process stopping does not wait for them: the webhook's own retry (a 503) is the other half.
    timer.unref();
  }

  /** Drops the entries of a path or tag on every replica; an unconfirmed one is retried in the background. */
  return async function revalidate(target: RevalidateTarget): Promise<Invalidated> {
    const done = await invalidate(target).catch((): Invalidated => ({ dropped: 0, confirmed: false }));
    const key = JSON.stringify(target);
    if (done.confirmed || pending.has(key)) return done;
    if (pending.size >= MAX_PENDING) logger.error({ target, attempts: 1 }, GAVE_UP_MESSAGE);
    else {
      pending.add(key);
      retry(target, key, 1);
    }
    return done;
  };
}
