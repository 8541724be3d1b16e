import { redirect } from 'react-router';
import { hostOf } from '../../../shared/host.ts';
import type { Route } from './+types/sign-out';

// /guestbook/sign-out: a resource route (an action, no page). A form posts here with or without
// JavaScript; the answer is a 303 to the guestbook, the session deleted on the server (its
// cookie expired), or with `everywhere=1` every session signed in under this name.

export async function action({ request, context }: Route.ActionArgs) {
  const { session } = hostOf(context);
  if ((await request.formData()).get('everywhere') === '1') session.signOutEverywhere();
  else session.destroy();
  return redirect('/guestbook');
}
