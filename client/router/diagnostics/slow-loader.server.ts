import { abortableDelay, type LoaderArgs } from '../../host.ts';
import { delayParam } from './delay-param.server.ts';

/** Holds the whole page for `ms`: a navigation to it shows what a slow loader does. */
export async function loader({ request, signal }: LoaderArgs) {
  const ms = delayParam(request, 1000);
  await abortableDelay(ms, signal);
  return { message: `The loader took ${ms} ms.` };
}
