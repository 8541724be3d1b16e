import { Form, useActionData, useLoaderData } from 'react-router';
import type { ActionData, LoaderData } from '../../host.ts';
import { MAX_NAME_LENGTH } from './limits.ts';
import type { action, loader } from './sign-in.server.ts';

export function meta() {
  return [{ title: 'Sign in · Guestbook' }];
}

export default function SignIn() {
  const { name } = useLoaderData<LoaderData<typeof loader>>();
  const refused = useActionData<ActionData<typeof action>>();
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
