import { Form, useActionData, useFetcher, useLoaderData, useNavigation, useRevalidator } from 'react-router';
import type { ActionData, LoaderData } from '../../router/route-entry.ts';
import type { action, loader } from './guestbook.server.ts';
import { MAX_MESSAGE_LENGTH, MAX_NAME_LENGTH } from './limits.ts';

type Entry = LoaderData<typeof loader>['entries'][number];

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
  const invalid = result !== undefined && 'errors' in result ? result : undefined;
  const revalidator = useRevalidator();
  return (
    <>
      <h1>Guestbook</h1>
      {thanks !== undefined && <p role="status" className="flash" data-testid="flash">{`Thanks, ${thanks}`}</p>}
      {/* A new entry empties the form: its key is the list's length. */}
      <Form method="post" className="guestbook-form" key={entries.length} aria-busy={submitting}>
        <label>
          Name
          <input
            name="name"
            required
            maxLength={MAX_NAME_LENGTH}
            defaultValue={invalid?.values.name}
            aria-invalid={invalid?.errors.name !== undefined}
            aria-describedby="name-error"
          />
        </label>
        <p id="name-error" className="field-error" data-testid="name-error">
          {invalid?.errors.name}
        </p>
        <label>
          Message
          <textarea
            name="message"
            required
            maxLength={MAX_MESSAGE_LENGTH}
            rows={3}
            defaultValue={invalid?.values.message}
            aria-invalid={invalid?.errors.message !== undefined}
            aria-describedby="message-error"
          />
        </label>
        <p id="message-error" className="field-error" data-testid="message-error">
          {invalid?.errors.message}
        </p>
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
              <strong>{entry.name}</strong> <time dateTime={entry.createdAt}>{entry.createdAt.slice(0, 10)}</time>
            </p>
            <p>{entry.message}</p>
            <DeleteButton entry={entry} />
          </li>
        ))}
      </ul>
    </>
  );
}
