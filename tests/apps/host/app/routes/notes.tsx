import { data, Form, Link, redirect, useFetcher, useNavigation, useRevalidator } from 'react-router';
import { hostOf } from '../../../../../shared/host.ts';
import { addNote, deleteNote, listNotes, type Note } from '../notes.server.ts';
import stylesheet from './notes.css?url';
import type { Route } from './+types/notes';

// A form as an app writes one, for the browser tests (tests/e2e/forms.test.ts): checked field by
// field (a 422 with what was typed), a pending state, a note deleted by a fetcher, a refresh that
// revalidates, the poster thanked once (a flash) after a 303, and a stylesheet of its own (`links`).

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }];

export function meta() {
  return [{ title: 'Notes' }];
}

export function loader({ context }: Route.LoaderArgs) {
  return { notes: listNotes(), noted: hostOf(context).session.get('noted') };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  if (form.get('intent') === 'delete') {
    deleteNote(Number(form.get('id')));
    return { deleted: true };
  }
  const values = { name: String(form.get('name') ?? '').trim(), message: String(form.get('message') ?? '').trim() };
  const errors = {
    ...(values.name === '' && { name: 'Please write a name.' }),
    ...(values.message === '' && { message: 'Please write a message.' }),
  };
  if (Object.keys(errors).length > 0) return data({ values, errors }, { status: 422 });
  addNote(values.name, values.message);
  hostOf(context).session.flash('noted', values.name);
  return redirect('/notes');
}

function NoteItem({ note }: { note: Note }) {
  const fetcher = useFetcher();
  return (
    <li>
      {`${note.name}: ${note.message} `}
      <fetcher.Form method="post">
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={note.id} />
        <button type="submit" aria-label={`Delete the note of ${note.name}`}>
          Delete
        </button>
      </fetcher.Form>
    </li>
  );
}

export default function Notes({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const adding = navigation.state === 'submitting' && navigation.formAction === '/notes';
  const answer = actionData !== undefined && 'errors' in actionData ? actionData : undefined;
  return (
    <>
      <h1>Notes</h1>
      <nav>
        <Link to="/members">Members</Link>
      </nav>
      {loaderData.noted !== undefined && <p data-testid="flash">{`Thanks, ${loaderData.noted}`}</p>}
      {/* A new note mounts a new form: its fields start empty again. */}
      <Form method="post" className="notes-form" aria-busy={adding} key={loaderData.notes[0]?.id ?? 0}>
        <input name="name" aria-label="Name" required defaultValue={answer?.values.name} aria-invalid={answer?.errors.name !== undefined} />
        {answer?.errors.name !== undefined && <p data-testid="name-error">{answer.errors.name}</p>}
        <textarea
          name="message"
          aria-label="Message"
          required
          defaultValue={answer?.values.message}
          aria-invalid={answer?.errors.message !== undefined}
        />
        {answer?.errors.message !== undefined && <p data-testid="message-error">{answer.errors.message}</p>}
        <button type="submit" data-testid="add">
          {adding ? 'Adding…' : 'Add'}
        </button>
      </Form>
      <button type="button" data-testid="refresh" onClick={() => void revalidator.revalidate()}>
        {revalidator.state === 'loading' ? 'Refreshing…' : 'Refresh'}
      </button>
      <ul data-testid="notes">
        {loaderData.notes.map((note) => (
          <NoteItem key={note.id} note={note} />
        ))}
      </ul>
    </>
  );
}
