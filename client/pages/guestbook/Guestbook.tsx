import { Form, useActionData, useFetcher, useLoaderData, useNavigation, useRevalidator } from 'react-router';
import { Link, type ActionData, type LoaderData } from '../../host.ts';
import type { action, loader } from './guestbook.server.ts';
import { MAX_MESSAGE_LENGTH, MAX_NAME_LENGTH } from './limits.ts';
import './guestbook.css';

type Entry = LoaderData<typeof loader>['entries'][number];
/** The action's answer to a post it refused: what was sent, and what is wrong with it. */
type Invalid = Extract<ActionData<typeof action>, { errors: unknown }>;
type FieldName = keyof Invalid['values'];

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

function FieldError({ field, invalid }: { field: FieldName; invalid: Invalid | undefined }) {
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
export default function Guestbook() {
  const { entries, thanks } = useLoaderData<LoaderData<typeof loader>>();
  const result = useActionData<ActionData<typeof action>>();
  const navigation = useNavigation();
  const submitting = navigation.state === 'submitting' && navigation.formData?.get('intent') !== 'delete';
  const invalid: Invalid | undefined = result !== undefined && 'errors' in result ? result : undefined;
  const revalidator = useRevalidator();
  return (
    <>
      <h1>Guestbook</h1>
      <p>
        <Link to="/guestbook/mine">Your entries</Link>
      </p>
      {thanks !== undefined && <p role="status" className="flash" data-testid="flash">{`Thanks, ${thanks}`}</p>}
      {/* A new entry empties the form: its key is the list's length. */}
      <Form method="post" className="guestbook-form" key={entries.length} aria-busy={submitting}>
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
              <Link to={`/guestbook/entries/${entry.id}`}>
                <time dateTime={entry.createdAt}>{entry.createdAt.slice(0, 10)}</time>
              </Link>
            </p>
            <p>{entry.message}</p>
            {entry.mine && <DeleteButton entry={entry} />}
          </li>
        ))}
      </ul>
    </>
  );
}
