import { randomUUID } from 'node:crypto';
import { data, Form, redirect } from 'react-router';
import { hostOf } from '../../../shared/host.ts';
import type { Route } from './+types/sign-in';
import { MAX_NAME_LENGTH } from './limits.ts';
import { sessionValue } from './signed-in.server.ts';

// /guestbook/sign-in: a name is enough for the demo (no password). Signing in keeps the writer id
// the session already has, so entries signed before are still "yours", under a new session id.

export function loader({ context }: Route.LoaderArgs) {
  return { name: sessionValue(hostOf(context).session, 'user') };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { session } = hostOf(context);
  const form = await request.formData();
  const value = form.get('name');
  const name = typeof value === 'string' ? value.trim() : '';
  if (name === '' || name.length > MAX_NAME_LENGTH) {
    return data({ error: `Please enter a name of 1 to ${MAX_NAME_LENGTH} characters.`, name }, { status: 422 });
  }
  // A new session id for the signed-in name (an id planted before is worth nothing now); the demo
  // has no passwords, so a name is its account, and "sign out everywhere" signs out every device
  // signed in under it.
  session.signIn(name);
  if (sessionValue(session, 'owner') === undefined) session.set('owner', randomUUID());
  session.set('user', name);
  return redirect('/guestbook/mine');
}

export function meta() {
  return [{ title: 'Sign in · Guestbook' }];
}

export default function SignIn({ loaderData, actionData: refused }: Route.ComponentProps) {
  const { name } = loaderData;
  return (
    <>
      <h1>Sign in</h1>
      {name !== undefined && <p>{`You are signed in as ${name}.`}</p>}
      <Form method="post" className="guestbook-form">
        <label>
          Name
          <input
            name="name"
            required
            maxLength={MAX_NAME_LENGTH}
            defaultValue={refused?.name ?? name}
            aria-invalid={refused !== undefined}
            aria-describedby="sign-in-error"
          />
        </label>
        <p id="sign-in-error" className="field-error" data-testid="sign-in-error">
          {refused?.error}
        </p>
        <button type="submit" data-testid="sign-in">
          Sign in
        </button>
      </Form>
    </>
  );
}
