import { abortableDelay, type LoaderArgs } from '../../host.ts';
import { delayParam } from './delay-param.server.ts';

/** A shell at once, then one section after `ms`: the streamed page the benchmark measures. */
export function loader({ request, signal }: LoaderArgs) {
  const ms = delayParam(request, 1000);
  return { ms, done: abortableDelay(ms, signal).then(() => ms) };
}
