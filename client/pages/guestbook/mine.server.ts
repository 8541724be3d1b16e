import type { LoaderArgs } from '../../host.ts';
import { requireSignIn, signedInUser } from './signed-in.server.ts';
import { guestbookOf, publicEntry } from './store.server.ts';

// /guestbook/mine: the signed-in writer's own entries. The guard runs first: without a session
// the request is a redirect to sign-in and this loader never runs.

export const middleware = [requireSignIn];

export async function loader({ context }: LoaderArgs<'/guestbook/mine'>) {
  const { name, owner } = context.get(signedInUser);
  const entries = (await guestbookOf(context).listByOwner(owner)).map(publicEntry);
  return { name, entries };
}
