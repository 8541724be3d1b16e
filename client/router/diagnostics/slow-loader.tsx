import { abortableDelay } from '../../../shared/host.ts';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { delayParam } from './delay.ts';
import { LoaderMessage } from './loader-message.tsx';

/** Holds the whole page for `ms`: a navigation to it shows what a slow loader does. */
export async function loader({ request }: LoaderFunctionArgs) {
  const ms = delayParam(request, 1000);
  await abortableDelay(ms, request.signal);
  return { message: `The loader took ${ms} ms.` };
}

export default function SlowLoader() {
  return <LoaderMessage message={useLoaderData<typeof loader>().message} />;
}
