import { Suspense, useState } from 'react';
import { Await, Link } from 'react-router';
import { abortableDelay } from '../../shared/host.ts';
import type { Route } from './+types/home';

/** Stands in for a slow data source, so the page shows streaming at work. */
const FEATURES_DELAY_MS = 300;

const FEATURES = [
  'The document shell streams as soon as React has it; slow sections follow in the same response.',
  'Every failure gets a digest that is on the error page, in one log line and in Sentry.',
  'Links load the next page’s code and data ahead of a click; navigation needs no document load.',
];

export function meta() {
  return [
    { title: 'react-ssr-host' },
    { name: 'description', content: 'A streamed, server-rendered React 19 page that hydrates in your browser.' },
  ];
}

export function loader({ request }: Route.LoaderArgs) {
  return {
    renderedAt: new Date().toISOString(),
    // Shows that a loader sees the request (this page is rendered per request; one that reads a
    // header cannot be prerendered: docs/caching.md). Only echoed back, escaped by React.
    language: (request.headers.get('accept-language') ?? 'en').split(',')[0]!.slice(0, 16),
    // A promise: the shell is sent without it, and the list streams in when it resolves.
    features: abortableDelay(FEATURES_DELAY_MS, request.signal).then(() => FEATURES),
  };
}

function Counter() {
  const [count, setCount] = useState(0);
  return (
    <button type="button" data-testid="counter" onClick={() => setCount((n) => n + 1)}>
      {`Clicked ${count} ${count === 1 ? 'time' : 'times'}`}
    </button>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { renderedAt, features } = loaderData;
  return (
    <>
      <h1>react-ssr-host</h1>
      <p className="lead">A streamed, server-rendered React 19 page that hydrates in your browser.</p>
      <p className="muted" data-testid="rendered-at">{`Loaded by the server at ${renderedAt}.`}</p>
      <p>
        Next:{' '}
        <Link to="/guide/streaming" prefetch="intent">
          how the guide pages load
        </Link>
        .
      </p>
      <section>
        <h2>Interactive after hydration</h2>
        <Counter />
      </section>
      {/* Last on the page: when it streams in, nothing below it moves (no layout shift). */}
      <section>
        <h2>Streamed section</h2>
        <Suspense fallback={<p data-testid="streamed-fallback">Loading the streamed section…</p>}>
          <Await resolve={features}>
            {(list) => (
              <ul data-testid="streamed-content">
                {list.map((feature) => (
                  <li key={feature}>{feature}</li>
                ))}
              </ul>
            )}
          </Await>
        </Suspense>
      </section>
    </>
  );
}
