// Loader data may hold promises at its top level: the part of a page that arrives later. The
// shell is not held for them; each is written into the same response when it settles, as a
// small script inside its own <Suspense> (so React streams it), and the browser's copy of the
// loader data gets a promise that the script settles. React Router's <Await> reads either.
import { Suspense, use } from 'react';
import { serializeForScript } from '../../shared/runtime.ts';
import type { RouteFailure } from './route-failure.ts';

/** Stands for a pending value in serialized loader data. */
const DEFERRED_KEY = '__deferred';
/** The page's queue of settled values: scripts push before or after the client boots. */
const DEFERRED_GLOBAL = '__REACT_SSR_HOST_DEFERRED__';

export type Settled = { id: string; value: unknown } | { id: string; failure: RouteFailure };
export interface PendingValue {
  id: string;
  settled: Promise<Settled>;
}

type RouteData = Record<string, unknown>;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** Server: marks a loader's promises handled at once, so a rejection before render never becomes a process fault. */
export function handleDeferred(data: unknown): void {
  if (typeof data !== 'object' || data === null) return;
  for (const value of Object.values(data)) if (isThenable(value)) Promise.resolve(value).catch(() => {});
}

/**
 * Server: loader data with every top-level promise replaced by a marker, and the promises,
 * each settling to a value or to the failure the host recorded for its rejection.
 */
export function splitDeferred(
  loaderData: Record<string, unknown>,
  fail: (error: unknown) => RouteFailure,
): { data: Record<string, unknown>; pending: PendingValue[] } {
  const pending: PendingValue[] = [];
  const data: Record<string, unknown> = {};
  for (const [routeId, routeData] of Object.entries(loaderData)) {
    if (typeof routeData !== 'object' || routeData === null || Array.isArray(routeData)) {
      data[routeId] = routeData;
      continue;
    }
    const copy: RouteData = {};
    for (const [key, value] of Object.entries(routeData)) {
      if (!isThenable(value)) {
        copy[key] = value;
        continue;
      }
      const id = `${routeId}:${key}`;
      copy[key] = { [DEFERRED_KEY]: id };
      const settled = Promise.resolve(value).then(
        (resolved): Settled => ({ id, value: resolved }),
        (error: unknown): Settled => ({ id, failure: fail(error) }),
      );
      pending.push({ id, settled });
    }
    data[routeId] = copy;
  }
  return { data, pending };
}

/** Nonces are base64; anything else is refused rather than escaped into markup. */
const NONCE = /^[A-Za-z0-9+/=_-]*$/;

// The script sits inside a hidden element's raw HTML: the parser runs it as it arrives, and
// React hydrates the element without looking inside (a bare <script> would not hydrate).
function DeferredScript({ settled, nonce = '' }: { settled: Promise<Settled>; nonce?: string }) {
  const value = use(settled);
  const push = `(self.${DEFERRED_GLOBAL}=self.${DEFERRED_GLOBAL}||[]).push(${serializeForScript(value)})`;
  const attribute = NONCE.test(nonce) && nonce !== '' ? ` nonce="${nonce}"` : '';
  return <div hidden dangerouslySetInnerHTML={{ __html: `<script${attribute}>${push}</script>` }} />;
}

/** Server: one streamed script per pending value. */
export function DeferredScripts({ pending, nonce }: { pending: readonly PendingValue[]; nonce?: string }) {
  return pending.map(({ id, settled }) => (
    <Suspense key={id} fallback={null}>
      <DeferredScript settled={settled} nonce={nonce} />
    </Suspense>
  ));
}

/**
 * Marks a settled promise the way React Router's <Await> marks the promises it tracks, so a
 * value that has already arrived (streamed into the page, or prefetched) renders at once,
 * without a flash of its fallback.
 */
function markSettled(promise: Promise<unknown>, entry: Settled): Promise<unknown> {
  // Once <Await> has tracked a promise it owns these (read-only) fields.
  if ('_tracked' in promise) return promise;
  const descriptors: PropertyDescriptorMap = { _tracked: { value: true } };
  if ('failure' in entry) descriptors._error = { value: entry.failure };
  else descriptors._data = { value: entry.value };
  return Object.defineProperties(promise, descriptors);
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
