import { Form } from 'react-router';
import { hostOf } from '../../../../../shared/host.ts';
import type { Route } from './+types/members';

export function loader({ context }: Route.LoaderArgs) {
  return { member: hostOf(context).session.get('member') };
}

/** The guarded page: who is signed in, and a form that posts to the sign-out resource route. */
export default function Members({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h1>Members</h1>
      <p data-testid="signed-in-as">{`Signed in as ${loaderData.member}`}</p>
      <Form method="post" action="/members/sign-out">
        <button type="submit" data-testid="sign-out">
          Sign out
        </button>
      </Form>
    </>
  );
}
