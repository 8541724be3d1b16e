import { createContext, use, useState, type ReactNode } from 'react';

// Per-render cache of the promises that Suspense waits on. React re-runs a suspended
// component when its promise settles, so the promise must outlive the component: one per
// key per request on the server, one per key per page load in the browser.

type Cache = Map<string, PromiseLike<unknown>>;
const ResourceContext = createContext<Cache | null>(null);

export function ResourceProvider({ children }: { children: ReactNode }) {
  const [cache] = useState<Cache>(() => new Map());
  return <ResourceContext value={cache}>{children}</ResourceContext>;
}

export function useResource<T>(key: string, load: () => PromiseLike<T>): T {
  const cache = use(ResourceContext);
  if (cache === null) throw new Error('useResource needs a <ResourceProvider> above it');
  let promise = cache.get(key) as PromiseLike<T> | undefined;
  if (promise === undefined) {
    promise = load();
    cache.set(key, promise);
  }
  return use(promise);
}

/** A promise React can read synchronously (`use` checks `status`), so hydration does not wait. */
export function settled<T>(value: T): PromiseLike<T> {
  return Object.assign(Promise.resolve(value), { status: 'fulfilled', value });
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export const isServer = typeof window === 'undefined';
