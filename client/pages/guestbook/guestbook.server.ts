import { data, redirect } from 'react-router';
import type { ActionArgs, LoaderArgs } from '../../router/route-entry.ts';
import { MAX_MESSAGE_LENGTH, MAX_NAME_LENGTH } from './limits.ts';
import { guestbook } from './store.server.ts';

// The guestbook's data and its one action: signing (validated: invalid input is answered with
// the messages and the typed values, status 422, and is no failure) and deleting an entry.

/** The session's flash key: the thanks shows once, on the page after the post. */
const THANKS = 'thanks';

export async function loader({ context }: LoaderArgs) {
  const thanks = context.session.get(THANKS) as unknown;
  return { entries: await guestbook.list(), thanks: typeof thanks === 'string' ? thanks : undefined };
}

/** A form field as text: a missing field or a file is empty. */
function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
}

function problems(name: string, message: string) {
  const errors: { name?: string; message?: string } = {};
  if (name === '') errors.name = 'Please enter your name.';
  else if (name.length > MAX_NAME_LENGTH) errors.name = `Please keep your name to ${MAX_NAME_LENGTH} characters.`;
  if (message === '') errors.message = 'Please write a message.';
  else if (message.length > MAX_MESSAGE_LENGTH) errors.message = `Please keep your message to ${MAX_MESSAGE_LENGTH} characters.`;
  return Object.keys(errors).length > 0 ? errors : undefined;
}

export async function action({ request, context }: ActionArgs) {
  const form = await request.formData();
  if (field(form, 'intent') === 'delete') {
    const id = field(form, 'id');
    return { deleted: await guestbook.remove(id) };
  }
  const name = field(form, 'name');
  const message = field(form, 'message');
  const errors = problems(name, message);
  if (errors !== undefined) return data({ errors, values: { name, message } }, { status: 422 });
  await guestbook.add({ name, message });
  context.session.flash(THANKS, name);
  return redirect('/guestbook');
}
