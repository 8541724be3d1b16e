import { Outlet, redirect } from 'react-router';
import { hostOf } from '../../../../../shared/host.ts';
import type { Route } from './+types/members-guard';

/** Without a member in the session the request is a redirect to sign in, and no loader below runs. */
export const middleware: Route.MiddlewareFunction[] = [
  ({ context }) => {
    if (hostOf(context).session.get('member') === undefined) throw redirect('/members/sign-in');
  },
];

export default function MembersGuard() {
  return <Outlet />;
}
