// The server's half of deferred values (../both/deferred.ts): loader promises become markers, and each
// settles into a script streamed into the same response. The browser's half is deferred-client.tsx;
// DeferredScripts here and DeferredPlaceholders there render the same tree, so hydration matches.
import { Suspense, use } from 'react';
import { serializeForScript } from '../../../shared/runtime.ts';
import { DEFERRED_GLOBAL, DEFERRED_KEY, type PendingValue, type Settled } from '../both/deferred.ts';
import type { RouteFailure } from '../both/route-failure.ts';

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
