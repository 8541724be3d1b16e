import { randomUUID } from 'node:crypto';
import { data, redirect } from 'react-router';
import { badRequest, type ActionArgs, type LoaderArgs, type RequestContext } from '../../host.ts';
import { MAX_MESSAGE_LENGTH, MAX_NAME_LENGTH } from './limits.ts';
import { guestbookOf, publicEntry } from './store.server.ts';

// The guestbook's data and its one action: signing (validated: invalid input is answered with
// the messages and the typed values, status 422, and is no failure) and deleting an entry, which
// only the session that wrote it may do. Writes are rate limited per client (context.limit).

/** What the action reads: a form, as a browser posts it. */
const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

/** Writes (signing or deleting) one client may make a minute: a person signs once or twice. */
const WRITES = { limit: 10, windowMs: 60_000 };

/** The session's writer id (typed in client/session-data.ts): a random id, which a sign-in can later take over. */
function ownerOf(context: RequestContext): string | undefined {
  const owner = context.session.get('owner');
  // A cookie signed by us holds what we set, but an older release may have set another type.
  return typeof owner === 'string' ? owner : undefined;
}

export async function loader({ context }: LoaderArgs) {
  // The thanks is flashed: it shows once, on the page after the post.
  const thanks = context.session.get('thanks');
  const owner = ownerOf(context);
  const entries = (await guestbookOf(context).list()).map((entry) => ({ ...publicEntry(entry), mine: entry.owner === owner }));
  return { entries, thanks: typeof thanks === 'string' ? thanks : undefined };
}

/** A form field as text: a missing field or a file is empty. */
function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
}

/** What is wrong with a post: a field's message, or the form's as a whole. */
type Problems = { name?: string; message?: string; form?: string };

function problems(name: string, message: string): Problems | undefined {
  const errors: Problems = {};
  if (name === '') errors.name = 'Please enter your name.';
  else if (name.length > MAX_NAME_LENGTH) errors.name = `Please keep your name to ${MAX_NAME_LENGTH} characters.`;
  if (message === '') errors.message = 'Please write a message.';
  else if (message.length > MAX_MESSAGE_LENGTH) errors.message = `Please keep your message to ${MAX_MESSAGE_LENGTH} characters.`;
  return Object.keys(errors).length > 0 ? errors : undefined;
}

export async function action({ request, context }: ActionArgs) {
  if (!FORM_TYPES.test(request.headers.get('content-type') ?? '')) badRequest('The guestbook takes a form, not this type of body.');
  const form = await request.formData();
  const name = field(form, 'name');
  const message = field(form, 'message');
  const retryAfter = await context.limit('guestbook-writes', WRITES);
  if (retryAfter !== undefined) {
    const errors: Problems = { form: `You are writing too fast: please wait ${retryAfter} s and try again.` };
    return data({ errors, values: { name, message } }, { status: 429, headers: { 'Retry-After': String(retryAfter) } });
  }
  if (field(form, 'intent') === 'delete') {
    const removal = await guestbookOf(context).remove(field(form, 'id'), ownerOf(context));
    if (removal === 'not-yours') throw data(null, { status: 403 });
    // Pages that show entries (an entry's own, stored: ./entry.server.ts) render anew on their next
    // read; a delete that changed nothing (no such entry) drops nothing.
    if (removal === 'removed') await context.revalidate({ tag: 'guestbook' });
    return { deleted: removal === 'removed' };
  }
  const errors = problems(name, message);
  if (errors !== undefined) return data({ errors, values: { name, message } }, { status: 422 });
  const owner = ownerOf(context) ?? randomUUID();
  context.session.set('owner', owner);
  await guestbookOf(context).add({ name, message, owner });
  await context.revalidate({ tag: 'guestbook' });
  context.session.flash('thanks', name);
  return redirect('/guestbook');
}
