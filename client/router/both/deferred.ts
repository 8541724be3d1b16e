// Loader data may hold promises at its top level: the part of a page that arrives later. The
// shell is not held for them; each is written into the same response when it settles, as a
// small script inside its own <Suspense> (so React streams it), and the browser's copy of the
// loader data gets a promise that the script settles. React Router's <Await> reads either.
// The protocol between them: a marker stands for each pending value in serialized loader
// data, and the page's scripts push each settled value onto a global queue.
import type { RouteFailure } from './route-failure.ts';

/** Stands for a pending value in serialized loader data. */
export const DEFERRED_KEY = '__deferred';
/** The page's queue of settled values: scripts push before or after the client boots. */
export const DEFERRED_GLOBAL = '__REACT_SSR_HOST_DEFERRED__';

export type Settled = { id: string; value: unknown } | { id: string; failure: RouteFailure };
export interface PendingValue {
  id: string;
  settled: Promise<Settled>;
}
