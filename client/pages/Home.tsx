import { Suspense, useState } from 'react';
import { delay, isServer, settled, useResource } from '../resource.tsx';

/** Stands in for a slow data source, so the page shows streaming at work. */
export const HOME_STREAM_DELAY_MS = 300;

const FEATURES = [
  'The document shell streams as soon as React has it; slow sections follow in the same response.',
  'Every failure gets a digest that is on the error page, in one log line and in Sentry.',
  'Crawlers receive the complete page; people receive the shell first.',
];

function StreamedSection() {
  // On the server the data arrives late; in the browser it is already in the HTML, so
  // hydration reads the same value at once and the markup matches.
  const features = useResource('home-features', () =>
    isServer ? delay(HOME_STREAM_DELAY_MS).then(() => FEATURES) : settled(FEATURES),
  );
  return (
    <ul data-testid="streamed-content">
      {features.map((feature) => (
        <li key={feature}>{feature}</li>
      ))}
    </ul>
  );
}

function Counter() {
  const [count, setCount] = useState(0);
  return (
    <button type="button" data-testid="counter" onClick={() => setCount((n) => n + 1)}>
      {`Clicked ${count} ${count === 1 ? 'time' : 'times'}`}
    </button>
  );
}

export function Home() {
  return (
    <main className="page">
      <h1>react-ssr-host</h1>
      <p>A streamed, server-rendered React 19 page that hydrates in your browser.</p>
      <section>
        <h2>Streamed section</h2>
        <Suspense fallback={<p data-testid="streamed-fallback">Loading the streamed section…</p>}>
          <StreamedSection />
        </Suspense>
      </section>
      <section>
        <h2>Interactive after hydration</h2>
        <Counter />
      </section>
    </main>
  );
}
