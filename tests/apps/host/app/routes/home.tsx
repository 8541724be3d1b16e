import { Suspense, useState } from 'react';
import { Await } from 'react-router';
import { abortableDelay } from '../../../../../shared/host.ts';
import type { Route } from './+types/home';

/** The streamed section's delay: long enough that the shell is sent first. */
const STREAMED_MS = 300;

export function meta() {
  return [{ title: 'Fixture home' }];
}

export function loader({ request }: Route.LoaderArgs) {
  return {
    renderedAt: new Date().toISOString(),
    features: abortableDelay(STREAMED_MS, request.signal).then(() => ['first streamed item', 'second streamed item']),
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

/** A page that streams a section after its shell and is interactive once hydrated. */
export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h1>Fixture home</h1>
      <p data-testid="rendered-at">{`Loaded by the server at ${loaderData.renderedAt}.`}</p>
      <Counter />
      <Suspense fallback={<p data-testid="streamed-fallback">Loading the streamed section…</p>}>
        <Await resolve={loaderData.features}>
          {(list) => (
            <ul data-testid="streamed-content">
              {list.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          )}
        </Await>
      </Suspense>
    </>
  );
}
