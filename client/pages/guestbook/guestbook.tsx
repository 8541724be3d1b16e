import { randomUUID } from 'node:crypto';
import { data, Form, Link, redirect, useFetcher, useNavigation, useRevalidator } from 'react-router';
import { hostOf, type BodyLimits, type HostSession, type OversizedFile } from '../../../shared/host.ts';
import type { Route } from './+types/guestbook';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENT_NAME_LENGTH, MAX_MESSAGE_LENGTH, MAX_NAME_LENGTH } from './limits.ts';
import { keepAttachment, removeAttachments } from './attachments.server.ts';
import { guestbookOf, publicEntry } from './store.server.ts';
import guestbookStyles from './guestbook.css?url';

// The guestbook's data and its one action: signing (validated: invalid input is answered with
// the messages and the typed values, status 422, and is no failure), with a file attached if the
// writer wants, and deleting an entry, which only the session that wrote it may do. Writes are
// rate limited per client (the host's limit).

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: guestbookStyles }];

export function meta() {
  return [
    { title: 'Guestbook · react-ssr-host' },
    { name: 'description', content: 'Sign the guestbook: a form that works with and without JavaScript.' },
  ];
}

/** What the action reads: a form, as a browser posts it. */
const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

/**
 * One attachment of up to MAX_ATTACHMENT_BYTES. A larger file, up to 32 MiB in all, is a field
 * error with what was typed kept; past that the host answers 413 (docs/forms.md, "Body limits").
 */
export const bodyLimits = { maxBytes: 32 * 1_048_576, maxFileBytes: MAX_ATTACHMENT_BYTES, maxFiles: 1 } satisfies Partial<BodyLimits>;

/** Writes (signing or deleting) one client may make a minute: a person signs once or twice. */
const WRITES = { limit: 10, windowMs: 60_000 };

/** The session's writer id (typed in client/session-data.ts): a random id, which a sign-in can later take over. */
function ownerOf(session: HostSession): string | undefined {
  const owner = session.get('owner');
  // A cookie signed by us holds what we set, but an older release may have set another type.
  return typeof owner === 'string' ? owner : undefined;
}

/**
 * A refused post's Retry-After on the page's answer too: React Router sends an action's headers
 * with a document only through the route's `headers` (https://reactrouter.com/how-to/headers).
 */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get('Retry-After');
  return retryAfter === null ? new Headers() : { 'Retry-After': retryAfter };
}

export async function loader({ context }: Route.LoaderArgs) {
  const host = hostOf(context);
  // The thanks is flashed: it shows once, on the page after the post.
  const thanks = host.session.get('thanks');
  const owner = ownerOf(host.session);
  const entries = (await guestbookOf(host).list()).map((entry) => ({ ...publicEntry(entry), mine: entry.owner === owner }));
  return { entries, thanks: typeof thanks === 'string' ? thanks : undefined };
}

/** A form field as text: a missing field is empty. */
const field = (fields: URLSearchParams, name: string): string => fields.get(name)?.trim() ?? '';

/** What is wrong with a post: a field's message, or the form's as a whole. */
type Problems = { name?: string; message?: string; attachment?: string; form?: string };

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

function problems(name: string, message: string, attachment: File | undefined, over: OversizedFile | undefined): Problems | undefined {
  const errors: Problems = {};
  if (name === '') errors.name = 'Please enter your name.';
  else if (name.length > MAX_NAME_LENGTH) errors.name = `Please keep your name to ${MAX_NAME_LENGTH} characters.`;
  if (message === '') errors.message = 'Please write a message.';
  else if (message.length > MAX_MESSAGE_LENGTH) errors.message = `Please keep your message to ${MAX_MESSAGE_LENGTH} characters.`;
  if (over !== undefined)
    errors.attachment = `${over.filename} is ${megabytes(over.size)}: an attachment may be at most ${megabytes(over.limit)}.`;
  else if (attachment !== undefined && attachment.name.length > MAX_ATTACHMENT_NAME_LENGTH)
    errors.attachment = `Please give the file a name of at most ${MAX_ATTACHMENT_NAME_LENGTH} characters.`;
  return Object.keys(errors).length > 0 ? errors : undefined;
}

export async function action({ request, context }: Route.ActionArgs) {
  const host = hostOf(context);
  if (!FORM_TYPES.test(request.headers.get('content-type') ?? ''))
    throw data('The guestbook takes a form, not this type of body.', { status: 400 });
  // Files to disk as they arrive, removed after the answer unless kept (docs/forms.md).
  const { fields, files, tooLarge } = await host.parseForm(request);
  const name = field(fields, 'name');
  const message = field(fields, 'message');
  const retryAfter = await host.limit('guestbook-writes', WRITES);
  if (retryAfter !== undefined) {
    const errors: Problems = { form: `You are writing too fast: please wait ${retryAfter} s and try again.` };
    return data({ errors, values: { name, message } }, { status: 429, headers: { 'Retry-After': String(retryAfter) } });
  }
  if (field(fields, 'intent') === 'delete') {
    const id = field(fields, 'id');
    const removal = await guestbookOf(host).remove(id, ownerOf(host.session));
    if (removal === 'not-yours') throw data(null, { status: 403 });
    // Pages that show entries (an entry's own, stored: ./entry.tsx) render anew on their next
    // read; a delete that changed nothing (no such entry) drops nothing.
    if (removal === 'removed') await Promise.all([removeAttachments(host, [id]), host.revalidate({ tag: 'guestbook' })]);
    return { deleted: removal === 'removed' };
  }
  const [upload] = files;
  const errors = problems(name, message, upload?.file, tooLarge[0]);
  if (errors !== undefined) return data({ errors, values: { name, message } }, { status: 422 });
  const owner = ownerOf(host.session) ?? randomUUID();
  host.session.set('owner', owner);
  // The file first, under the entry's id: an entry never names a file that is not there.
  const id = randomUUID();
  if (upload !== undefined) await keepAttachment(host, id, upload.file);
  const attachment = upload === undefined ? null : upload.file.name || 'attachment';
  const added = await guestbookOf(host).add({ id, name, message, owner, attachment });
  await removeAttachments(host, added.droppedAttachments);
  await host.revalidate({ tag: 'guestbook' });
  host.session.flash('thanks', name);
  return redirect('/guestbook');
}

type Entry = Route.ComponentProps['loaderData']['entries'][number];
/** The action's answer to a post it refused: what was sent, and what is wrong with it. */
type Invalid = Extract<NonNullable<Route.ComponentProps['actionData']>, { errors: unknown }>;
type FieldName = keyof Invalid['values'];
type ErrorName = Exclude<keyof Invalid['errors'], 'form'>;

/** What each field's control has in common: required, refilled after a refusal, linked to its error. */
function fieldProps(field: FieldName, invalid: Invalid | undefined) {
  return {
    name: field,
    required: true,
    defaultValue: invalid?.values[field],
    'aria-invalid': invalid?.errors[field] !== undefined,
    'aria-describedby': `${field}-error`,
  };
}

function FieldError({ field, invalid }: { field: ErrorName; invalid: Invalid | undefined }) {
  return (
    <p id={`${field}-error`} className="field-error" data-testid={`${field}-error`}>
      {invalid?.errors[field]}
    </p>
  );
}

/** Deleting goes through a fetcher: no navigation, and the list revalidates after it. */
function DeleteButton({ entry }: { entry: Entry }) {
  const fetcher = useFetcher();
  const busy = fetcher.state !== 'idle';
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="id" value={entry.id} />
      <button type="submit" disabled={busy} aria-label={`Delete the entry of ${entry.name}`} data-testid="delete-entry">
        {busy ? 'Deleting…' : 'Delete'}
      </button>
    </fetcher.Form>
  );
}

/** Works without JavaScript (a document post, then 303 or the page again with the messages). */
export default function Guestbook({ loaderData, actionData: result }: Route.ComponentProps) {
  const { entries, thanks } = loaderData;
  const navigation = useNavigation();
  const submitting = navigation.state === 'submitting' && navigation.formData?.get('intent') !== 'delete';
  const invalid: Invalid | undefined = result !== undefined && 'errors' in result ? result : undefined;
  const revalidator = useRevalidator();
  return (
    <>
      <h1>Guestbook</h1>
      <p>
        <Link prefetch="intent" to="/guestbook/mine">
          Your entries
        </Link>
      </p>
      {thanks !== undefined && <p role="status" className="flash" data-testid="flash">{`Thanks, ${thanks}`}</p>}
      {/* A new entry empties the form: its key is the list's length. */}
      <Form method="post" encType="multipart/form-data" className="guestbook-form" key={entries.length} aria-busy={submitting}>
        <label>
          Name
          <input {...fieldProps('name', invalid)} maxLength={MAX_NAME_LENGTH} />
        </label>
        <FieldError field="name" invalid={invalid} />
        <label>
          Message
          <textarea {...fieldProps('message', invalid)} maxLength={MAX_MESSAGE_LENGTH} rows={3} />
        </label>
        <FieldError field="message" invalid={invalid} />
        {/* A browser never refills a file input: after a refusal the writer chooses the file again. */}
        <label>
          Attachment (optional, up to {MAX_ATTACHMENT_BYTES / 1_048_576} MB)
          <input
            type="file"
            name="attachment"
            aria-invalid={invalid?.errors.attachment !== undefined}
            aria-describedby="attachment-error"
            data-testid="attachment"
          />
        </label>
        <FieldError field="attachment" invalid={invalid} />
        {invalid?.errors.form !== undefined && (
          <p role="alert" className="field-error" data-testid="form-error">
            {invalid.errors.form}
          </p>
        )}
        <button type="submit" disabled={submitting} data-testid="sign">
          {submitting ? 'Signing…' : 'Sign the guestbook'}
        </button>
      </Form>
      <div className="guestbook-heading">
        <h2>{entries.length === 0 ? 'No entries yet' : `${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}`}</h2>
        {/* Others sign too: the list is loaded again, never from a prefetch. */}
        <button
          type="button"
          onClick={() => void revalidator.revalidate()}
          disabled={revalidator.state === 'loading'}
          data-testid="refresh"
        >
          {revalidator.state === 'loading' ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      <ul className="guestbook-entries" data-testid="entries">
        {entries.map((entry) => (
          <li key={entry.id}>
            <p>
              <strong>{entry.name}</strong>{' '}
              <Link prefetch="intent" to={`/guestbook/entries/${entry.id}`}>
                <time dateTime={entry.createdAt.toISOString()}>{entry.createdAt.toISOString().slice(0, 10)}</time>
              </Link>
            </p>
            <p>{entry.message}</p>
            {entry.attachment !== null && (
              <p>
                {/* A download from a resource route: a document request, not a client navigation. */}
                <a href={`/guestbook/entries/${entry.id}/attachment`} download={entry.attachment} data-testid="attachment-link">
                  Attachment: {entry.attachment}
                </a>
              </p>
            )}
            {entry.mine && <DeleteButton entry={entry} />}
          </li>
        ))}
      </ul>
    </>
  );
}
