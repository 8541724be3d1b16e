// The browser's half of deferred values (../both/deferred.ts): markers become promises, settled by the
// scripts streamed into the page or by a navigation's data lines. The server's half is
// deferred-server.tsx.
import { Suspense } from 'react';
import { DEFERRED_GLOBAL, DEFERRED_KEY, type Settled } from '../both/deferred.ts';
import type { RouteFailure } from '../both/route-failure.ts';

/**
 * Marks a settled promise so a value that has already arrived (streamed into the page, or
 * prefetched) renders at once, without a flash of its fallback. Neither React nor React Router
 * has a public API for "this promise is already settled"; this is the thenable protocol React's
 * use() reads (status, value, reason: ReactFiberThenable in React's source) and React Router's
 * <Await> reads too since 8.5 (its getPromiseResult), instead of the private
 * _tracked/_data/_error fields that <Await> owns. The only place the host writes them;
 * tests/app/deferred-settled.test.tsx fails the day either stops reading them.
 */
function markSettled(promise: Promise<unknown>, entry: Settled): Promise<unknown> {
  if ('failure' in entry) return Object.assign(promise, { status: 'rejected', reason: entry.failure });
  return Object.assign(promise, { status: 'fulfilled', value: entry.value });
}

function settledPromise(entry: Settled): Promise<unknown> {
  // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a route failure is data (status, digest) for the boundary
  return markSettled('failure' in entry ? Promise.reject(entry.failure) : Promise.resolve(entry.value), entry);
}

/** Browser: a promise per marker, settled by `settle` (from the page's scripts or a data response). */
export function createDeferredRegistry() {
  const waiting = new Map<string, { promise: Promise<unknown>; resolve(value: unknown): void; reject(failure: RouteFailure): void }>();
  const early = new Map<string, Settled>();
  const settle = (entry: Settled) => {
    const target = waiting.get(entry.id);
    if (target === undefined) return void early.set(entry.id, entry);
    waiting.delete(entry.id);
    void markSettled(target.promise, entry);
    if ('failure' in entry) target.reject(entry.failure);
    else target.resolve(entry.value);
  };
  const promiseFor = (id: string): Promise<unknown> => {
    const known = early.get(id);
    if (known) {
      early.delete(id);
      return settledPromise(known);
    }
    let handlers!: { resolve(value: unknown): void; reject(failure: RouteFailure): void };
    const promise = new Promise((resolve, reject) => (handlers = { resolve, reject }));
    waiting.set(id, { promise, ...handlers });
    return promise;
  };
  /** Loader data with its markers turned back into promises. */
  const revive = (data: Record<string, unknown>): Record<string, unknown> => {
    const revived: Record<string, unknown> = {};
    for (const [routeId, routeData] of Object.entries(data)) {
      if (typeof routeData !== 'object' || routeData === null || Array.isArray(routeData)) {
        revived[routeId] = routeData;
        continue;
      }
      revived[routeId] = Object.fromEntries(
        Object.entries(routeData).map(([key, value]) => {
          const id = (value as Record<string, unknown> | null)?.[DEFERRED_KEY];
          if (typeof id !== 'string') return [key, value];
          const promise = promiseFor(id);
          promise.catch(() => {}); // <Await> handles it; no unhandled-rejection noise
          return [key, promise];
        }),
      );
    }
    return revived;
  };
  /** Fails whatever is still waiting: the values will never arrive. */
  const abandon = (failure: RouteFailure) => {
    for (const target of waiting.values()) target.reject(failure);
    waiting.clear();
  };
  return { settle, revive, abandon };
}

/** Browser: the scripts streamed into this page settle the registry, before or after boot. */
export function connectPageScripts(settle: (entry: Settled) => void): void {
  const scope = self as unknown as Record<string, { push(entry: Settled): void } | Settled[] | undefined>;
  const queued = scope[DEFERRED_GLOBAL];
  if (Array.isArray(queued)) queued.forEach(settle);
  scope[DEFERRED_GLOBAL] = { push: settle };
}

/** Browser: the same tree as the server's, so hydration matches; the values come from the scripts. */
export function DeferredPlaceholders({ ids }: { ids: readonly string[] }) {
  return ids.map((id) => (
    <Suspense key={id} fallback={null}>
      <div hidden suppressHydrationWarning dangerouslySetInnerHTML={{ __html: '' }} />
    </Suspense>
  ));
}
