import { redirect } from 'react-router';
import type { ActionArgs } from '../../host.ts';
import { OWNER, USER } from './signed-in.server.ts';

// /guestbook/sign-out: a resource route (an action, no page). A form posts here with or without
// JavaScript; the answer is a 303 to the guestbook with the session cleared.

export function action({ context }: ActionArgs<'/guestbook/sign-out'>) {
  context.session.unset(USER);
  context.session.unset(OWNER);
  return redirect('/guestbook');
}
