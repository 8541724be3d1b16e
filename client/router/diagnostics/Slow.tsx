import { Suspense } from 'react';
import { Await, useLoaderData } from 'react-router';
import type { loader } from './slow.server.ts';

export default function Slow() {
  const { ms, done } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Diagnostic: slow stream</h1>
      <Suspense fallback={<p>{`Waiting ${ms} ms…`}</p>}>
        <Await resolve={done}>{(after: number) => <p data-testid="slow-content">{`Finished after ${after} ms.`}</p>}</Await>
      </Suspense>
    </>
  );
}
