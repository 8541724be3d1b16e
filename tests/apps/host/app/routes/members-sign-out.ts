import { redirect } from 'react-router';
import { hostOf } from '../../../../../shared/host.ts';
import type { Route } from './+types/members-sign-out';

/** A resource route: ends the session, then on to the notes page (a 303 for a document post). */
export function action({ context }: Route.ActionArgs) {
  hostOf(context).session.destroy();
  return redirect('/notes');
}
