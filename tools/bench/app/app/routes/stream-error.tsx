import { Suspense } from 'react';
import { Await, useLoaderData } from 'react-router';

// The streamed page whose section fails after the shell went out: the answer is a 200 already,
// and the section is the failure (a digest in its place on the host).

const SECTION_MS = 20;

export function loader() {
  const section = new Promise<number>((_resolve, reject) =>
    setTimeout(() => reject(new Error('bench: the streamed section failed on purpose')), SECTION_MS),
  );
  return { section };
}

export default function StreamError() {
  const { section } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>Streamed page</h1>
      <Suspense fallback={<p>Loading the section…</p>}>
        <Await resolve={section}>{(ms) => <p>{`Resolved after ${ms} ms.`}</p>}</Await>
      </Suspense>
    </main>
  );
}
