import { redirect } from 'react-router';
import { hostOf } from '../../../../../shared/host.ts';
import type { Route } from './+types/members-sign-out';

/** A resource route: ends the session (`everywhere=1`: every session of its member), then on to the notes page (a 303 for a document post). */
export async function action({ request, context }: Route.ActionArgs) {
  const { session } = hostOf(context);
  if ((await request.formData()).get('everywhere') === '1') session.signOutEverywhere();
  else session.destroy();
  return redirect('/notes');
}
