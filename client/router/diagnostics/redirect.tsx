import { data, redirect, type LoaderFunctionArgs } from 'react-router';
import { LoaderMessage } from './loader-message.tsx';

/** Bounds what is echoed into a Location header. */
const MAX_TARGET_LENGTH = 2_048;

/** Redirects to `to`: the host lets same-origin targets through and refuses any other (500). */
export function loader({ request }: LoaderFunctionArgs): never {
  const to = new URL(request.url).searchParams.get('to');
  if (to === null || to.length > MAX_TARGET_LENGTH)
    throw data(`to must be a URL of at most ${MAX_TARGET_LENGTH} characters`, { status: 400 });
  throw redirect(to);
}

export default function Redirect() {
  return <LoaderMessage message={undefined} />;
}
