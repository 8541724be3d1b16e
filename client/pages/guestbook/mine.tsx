import { Form, Link } from 'react-router';
import { hostOf } from '../../../shared/host.ts';
import type { Route } from './+types/mine';
import { requireSignIn, signedInUser } from './signed-in.server.ts';
import { guestbookOf, publicEntry } from './store.server.ts';

// /guestbook/mine: the signed-in writer's own entries. The guard runs first: without a session
// the request is a redirect to sign-in and this loader never runs.

export const middleware: Route.MiddlewareFunction[] = [requireSignIn];

export async function loader({ context }: Route.LoaderArgs) {
  const { name, owner } = context.get(signedInUser);
  const entries = (await guestbookOf(hostOf(context)).listByOwner(owner)).map(publicEntry);
  return { name, entries };
}

export function meta() {
  return [{ title: 'Your entries · Guestbook' }, { name: 'robots', content: 'noindex' }];
}

export default function Mine({ loaderData }: Route.ComponentProps) {
  const { name, entries } = loaderData;
  return (
    <>
      <h1>Your entries</h1>
      <p>
        Signed in as <strong data-testid="signed-in-as">{name}</strong>.
      </p>
      {/* Posts to a resource route (no page): with JavaScript as without, a 303 back to the guestbook. */}
      <Form method="post" action="/guestbook/sign-out" className="guestbook-sign-out">
        <button type="submit" data-testid="sign-out">
          Sign out
        </button>
        {/* Every device signed in under this name: the sessions are held on the server, so each is deleted. */}
        <button type="submit" name="everywhere" value="1" data-testid="sign-out-everywhere">
          Sign out everywhere
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
                <Link to={`/guestbook/entries/${entry.id}`} prefetch="intent">
                  <time dateTime={entry.createdAt.toISOString()}>{entry.createdAt.toISOString().slice(0, 10)}</time>
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
