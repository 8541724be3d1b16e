import { redirect } from 'react-router';
import type { ActionArgs } from '../../host.ts';

// /guestbook/sign-out: a resource route (an action, no page). A form posts here with or without
// JavaScript; the answer is a 303 to the guestbook, the session destroyed (its cookie expired).

export function action({ context }: ActionArgs<'/guestbook/sign-out'>) {
  context.session.destroy();
  return redirect('/guestbook');
}
