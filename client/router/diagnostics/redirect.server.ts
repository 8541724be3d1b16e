import { redirect } from 'react-router';
import { badRequest, type LoaderArgs } from '../../host.ts';

/** Bounds what is echoed into a Location header. */
const MAX_TARGET_LENGTH = 2_048;

/** Redirects to `to`: the host lets same-origin targets through and refuses any other (500). */
export function loader({ request }: LoaderArgs): never {
  const to = new URL(request.url).searchParams.get('to');
  if (to === null || to.length > MAX_TARGET_LENGTH) badRequest(`to must be a URL of at most ${MAX_TARGET_LENGTH} characters`);
  throw redirect(to);
}
