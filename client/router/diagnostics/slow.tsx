import { Suspense } from 'react';
import { Await, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { abortableDelay } from '../../../shared/host.ts';
import { delayParam } from './delay.ts';

/** A shell at once, then one section after `ms`: the streamed page the benchmark measures. */
export function loader({ request }: LoaderFunctionArgs) {
  const ms = delayParam(request, 1000);
  return { ms, done: abortableDelay(ms, request.signal).then(() => ms) };
}

export default function Slow() {
  const { ms, done } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Diagnostic: slow stream</h1>
      <Suspense fallback={<p>{`Waiting ${ms} ms…`}</p>}>
        <Await resolve={done}>{(after) => <p data-testid="slow-content">{`Finished after ${after} ms.`}</p>}</Await>
      </Suspense>
    </>
  );
}
