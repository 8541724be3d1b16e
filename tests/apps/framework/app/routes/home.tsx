import { Form, Link, useFetcher } from 'react-router';
import type { Route } from './+types/home';
import { hostOf } from '../../../../../shared/host.ts';
import { getContacts } from '../contacts';

export function meta() {
  return [{ title: 'Contacts' }];
}

export async function loader({ context }: Route.LoaderArgs) {
  const { db, session } = hostOf(context);
  const notes = await db.selectFrom('notes').select('text').orderBy('id').execute();
  return { contacts: await getContacts(), notes: notes.map((note) => note.text), noted: session.get('noted') };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const fetcher = useFetcher<{ count: number }>();
  return (
    <main>
      <h1>Contacts</h1>
      {loaderData.noted !== undefined && <p id="noted">{`Noted: ${loaderData.noted}`}</p>}
      <ul id="notes">
        {loaderData.notes.map((note, i) => (
          <li key={i}>{note}</li>
        ))}
      </ul>
      <ul id="contacts">
        {loaderData.contacts.map((contact) => (
          <li key={contact.id}>
            <Link to={`/contacts/${contact.id}`} prefetch="intent">{`${contact.first} ${contact.last}`}</Link>
          </li>
        ))}
      </ul>
      <Link to="/contacts/nobody">A contact that is not there</Link> <Link to="/about">About</Link>
      {/* The top route's action: React Router posts `/` (no `?index`) to the root route. */}
      <Form method="post" action="/">
        <input name="note" aria-label="Note" />
        <button type="submit">Add note</button>
      </Form>
      <button type="button" id="count" onClick={() => fetcher.load('/api/contacts')}>
        Count contacts
      </button>
      {fetcher.data !== undefined && <p id="counted">{`${fetcher.data.count} contacts`}</p>}
    </main>
  );
}
