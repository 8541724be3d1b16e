import { redirect } from 'react-router';
import { hostOf } from '../../../shared/host.ts';
import type { Route } from './+types/sign-out';

// /guestbook/sign-out: a resource route (an action, no page). A form posts here with or without
// JavaScript; the answer is a 303 to the guestbook, the session destroyed (its cookie expired).

export function action({ context }: Route.ActionArgs) {
  hostOf(context).session.destroy();
  return redirect('/guestbook');
}
