import { randomUUID } from 'node:crypto';
import { data, redirect } from 'react-router';
import type { ActionArgs, LoaderArgs } from '../../host.ts';
import { MAX_NAME_LENGTH } from './limits.ts';
import { sessionValue } from './signed-in.server.ts';

// /guestbook/sign-in: a name is enough for the demo (no password). Signing in keeps the writer id
// the session already has, so entries signed before are still "yours".

export function loader({ context }: LoaderArgs<'/guestbook/sign-in'>) {
  return { name: sessionValue(context, 'user') };
}

export async function action({ request, context }: ActionArgs<'/guestbook/sign-in'>) {
  const form = await request.formData();
  const value = form.get('name');
  const name = typeof value === 'string' ? value.trim() : '';
  if (name === '' || name.length > MAX_NAME_LENGTH) {
    return data({ error: `Please enter a name of 1 to ${MAX_NAME_LENGTH} characters.`, name }, { status: 422 });
  }
  context.session.set('user', name);
  if (sessionValue(context, 'owner') === undefined) context.session.set('owner', randomUUID());
  return redirect('/guestbook/mine');
}
