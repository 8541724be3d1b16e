import { Form, useLoaderData } from 'react-router';
import { Link, type LoaderData } from '../../host.ts';
import type { loader } from './mine.server.ts';

export function meta() {
  return [{ title: 'Your entries · Guestbook' }, { name: 'robots', content: 'noindex' }];
}

export default function Mine() {
  const { name, entries } = useLoaderData<LoaderData<typeof loader>>();
  return (
    <>
      <h1>Your entries</h1>
      <p>
        Signed in as <strong data-testid="signed-in-as">{name}</strong>.
      </p>
      {/* Posts to a resource route (no page): with JavaScript as without, a 303 back to the guestbook. */}
      <Form method="post" action="/guestbook/sign-out">
        <button type="submit" data-testid="sign-out">
          Sign out
        </button>
      </Form>
      {entries.length === 0 ? (
        <p data-testid="no-entries">
          You have not signed the guestbook yet. <Link to="/guestbook">Sign it</Link>.
        </p>
      ) : (
        <ul className="guestbook-entries" data-testid="my-entries">
          {entries.map((entry) => (
            <li key={entry.id}>
              <p>
                <Link to={`/guestbook/entries/${entry.id}`}>
                  <time dateTime={entry.createdAt}>{entry.createdAt.slice(0, 10)}</time>
                </Link>
              </p>
              <p>{entry.message}</p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
