import { data, Form, Link, redirect } from 'react-router';
import { hostOf } from '../../../../../shared/host.ts';
import type { Route } from './+types/members-sign-in';

// Signs a member in (a name in the session, the session renewed as theirs), then on to the guarded members' page.

export async function action({ request, context }: Route.ActionArgs) {
  const name = String((await request.formData()).get('name') ?? '').trim();
  if (name === '') return data({ error: 'Please write a name.' }, { status: 422 });
  const { session } = hostOf(context);
  session.signIn(name);
  session.set('member', name);
  return redirect('/members');
}

export default function SignIn({ actionData }: Route.ComponentProps) {
  return (
    <>
      <h1>Sign in</h1>
      <nav>
        {/* Prefetched when the pointer rests on it: the notes page's data, code and stylesheet. */}
        <Link to="/notes" prefetch="intent">
          Notes
        </Link>
      </nav>
      <Form method="post">
        <input name="name" aria-label="Name" />
        {actionData?.error !== undefined && <p>{actionData.error}</p>}
        <button type="submit" data-testid="sign-in">
          Sign in
        </button>
      </Form>
    </>
  );
}
