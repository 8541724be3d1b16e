// The browser's side of shared/route-data.ts: fetches a page's loader data and reads the
// newline-delimited answer; pending values settle as their lines arrive.
import { dataUrl, type DataLine } from '../../../shared/route-data.ts';
import { createDeferredRegistry } from './deferred-client.tsx';
import type { Settled } from '../both/deferred.ts';
import { routeFailure } from '../both/route-failure.ts';

export interface RouteData {
  redirect?: string;
  data: Record<string, unknown>;
  errors: Record<string, unknown> | null;
}

/** Splits a text stream into lines, last one included. */
async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.pipeThrough(new TextDecoderStream() as ReadableWritablePair<string, Uint8Array>).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    let end: number;
    while ((end = buffered.indexOf('\n')) !== -1) {
      yield buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
    }
  }
  if (buffered !== '') yield buffered;
}

/** Marks a prefetch: its failures are logged at warn and not reported (server/pages/pages.ts). */
export const PREFETCH_HEADERS = { Purpose: 'prefetch' };

/**
 * Resolves with the head (data and failures by route id, or a redirect) as soon as it arrives;
 * `done` settles when the whole response has been read. `init` carries an action's method and body.
 */
export async function fetchRouteData(
  pageUrl: string,
  routeIds: readonly string[],
  init: RequestInit & { headers?: Record<string, string> } = {},
): Promise<RouteData & { done: Promise<void> }> {
  const response = await fetch(dataUrl(pageUrl, routeIds), { ...init, headers: { ...init.headers, Accept: 'application/x-ndjson' } });
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('ndjson')) {
    // The host failed around the loaders (a refused redirect, say) and logged it: its JSON
    // error carries the digest, shown in the deepest route's boundary like a loader's failure.
    const body = type.includes('json')
      ? ((await response.json().catch(() => null)) as { error?: { status?: unknown; digest?: unknown } } | null)
      : null;
    const { status, digest } = body?.error ?? {};
    // An action's refusal (a 403, 405 or 413) is shown as its status; the form's input stays.
    const refusedAction = init.method !== undefined && typeof status === 'number' && status < 500;
    if (typeof status === 'number' && (typeof digest === 'string' || refusedAction) && routeIds.length > 0) {
      return {
        data: {},
        errors: { [routeIds.at(-1)!]: routeFailure(status, typeof digest === 'string' ? digest : undefined) },
        done: Promise.resolve(),
      };
    }
    throw new Error(`Loading the data of ${pageUrl} failed with status ${response.status}`);
  }
  const stream = lines(response.body!);
  const first = await stream.next();
  if (first.done) throw new Error(`The data response for ${pageUrl} was empty`);
  const head = JSON.parse(first.value) as DataLine;
  if ('redirect' in head) return { redirect: head.redirect, data: {}, errors: null, done: Promise.resolve() };
  if (!('data' in head)) throw new Error(`The data response for ${pageUrl} did not start with its head`);
  const registry = createDeferredRegistry();
  const data = registry.revive(head.data);
  const done = (async () => {
    try {
      for await (const line of stream) registry.settle(JSON.parse(line) as Settled);
    } finally {
      // A response cut short leaves values that will never come: their sections show a failure.
      registry.abandon(routeFailure(503, undefined));
    }
  })();
  done.catch(() => {});
  return { data, errors: head.errors, done };
}
