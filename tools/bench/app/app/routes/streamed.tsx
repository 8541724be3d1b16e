import { Suspense } from 'react';
import { Await, useLoaderData } from 'react-router';

/**
 * The streamed section's delay: long enough to be a second flush after the shell, short enough
 * that the row measures CPU, not the wait (at 32 connections the delay alone allows 1,600 req/s).
 */
const SECTION_MS = 20;

export function meta() {
  return [{ title: 'Streamed page' }];
}

export function loader() {
  return { section: new Promise<number>((resolve) => setTimeout(() => resolve(SECTION_MS), SECTION_MS)) };
}

/** An h1 in the shell, then one section streamed once its value resolves. */
export default function Streamed() {
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
