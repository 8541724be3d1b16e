import { randomBytes } from 'node:crypto';
import { Suspense } from 'react';
import { Await, data } from 'react-router';
import { abortableDelay } from '../../../../../shared/host.ts';
import type { Route } from './+types/fixture';

// A page with a streamed value and what tests switch with its query: `?hold=ms` the streamed part's
// delay, `?ignore-signal` a careless one, `?settle-late=ms` a loader that ignores its signal and
// comes back late, `?pad=bytes` text that compresses poorly, `?missing` a 404.

/** The signals the loader was given, newest last, so a test can see them fire. */
export const seenSignals: AbortSignal[] = [];
/** How long the streamed part takes unless `?hold=ms` says otherwise. */
export const LATER_MS = 200;
/** Settles once a loader that ignored its signal (`?settle-late=ms`) has finally returned. */
export const late = { loader: Promise.resolve() };
/** `?pad=<bytes>` adds that much text that compresses poorly (hex of random bytes), up to this. */
const MAX_PAD = 8 * 1024 * 1024;

/** A delay that ignores every signal, as a careless fetch() does. */
const careless = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function loader({ params, request }: Route.LoaderArgs) {
  seenSignals.push(request.signal);
  const url = new URL(request.url);
  if (url.searchParams.has('missing')) throw data(null, { status: 404 });
  const settleLate = Number(url.searchParams.get('settle-late') ?? 0);
  if (settleLate > 0) {
    const done = careless(settleLate);
    late.loader = done;
    await done;
    // Its streamed part has failed by now too: what a host that kept going would record again.
    const later = Promise.reject<string>(new Error('The fixture loader came back too late'));
    // Handled here too: a host that stopped waiting never reads it, and the test process would see an unhandled rejection.
    later.catch(() => undefined);
    return { greeting: 'LATE-LOADER-DATA', search: url.search, padding: '', later };
  }
  const hold = Number(url.searchParams.get('hold') ?? 0) || LATER_MS;
  const later = url.searchParams.has('ignore-signal') ? careless(hold) : abortableDelay(hold, request.signal);
  const pad = Math.min(Number(url.searchParams.get('pad') ?? 0) || 0, MAX_PAD);
  return {
    greeting: `Hello from the fixture, ${params.name ?? 'nobody'}`,
    // The query as the loader saw it: the same on a document load and in navigation data.
    search: url.search,
    padding: randomBytes(Math.floor(pad / 2)).toString('hex'),
    later: later.then(() => 'LATER-PART-ARRIVED'),
  };
}

export function meta() {
  return [{ title: 'Fixture page' }];
}

export default function Fixture({ loaderData }: Route.ComponentProps) {
  const { greeting, padding, later } = loaderData;
  return (
    <>
      <h1 data-testid="fixture">{greeting}</h1>
      {padding && <p data-testid="padding">{padding}</p>}
      <Suspense fallback={<p>fixture fallback</p>}>
        <Await resolve={later}>{(text) => <p>{text}</p>}</Await>
      </Suspense>
      {/* Two large sections settling together: React writes them apart, and waits in between while the response is full. */}
      {padding &&
        [1, 2].map((n) => (
          <Suspense key={n} fallback={null}>
            <Await resolve={later}>{(text) => <p>{`${text} ${n}: ${padding}`}</p>}</Await>
          </Suspense>
        ))}
    </>
  );
}
