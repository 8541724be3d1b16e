import { Suspense, useState } from 'react';
import { Await, useLoaderData } from 'react-router';
import { Link } from '../host.ts';
import type { HomeData } from './home.server.ts';

function Counter() {
  const [count, setCount] = useState(0);
  return (
    <button type="button" data-testid="counter" onClick={() => setCount((n) => n + 1)}>
      {`Clicked ${count} ${count === 1 ? 'time' : 'times'}`}
    </button>
  );
}

export default function Home() {
  const { renderedAt, features } = useLoaderData<HomeData>();
  return (
    <>
      <h1>react-ssr-host</h1>
      <p className="lead">A streamed, server-rendered React 19 page that hydrates in your browser.</p>
      <p className="muted" data-testid="rendered-at">{`Loaded by the server at ${renderedAt}.`}</p>
      <p>
        Next: <Link to="/guide/streaming">how the guide pages load</Link>.
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
            {(list: string[]) => (
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
