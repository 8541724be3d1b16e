import { data, Form, redirect } from 'react-router';
import { hostOf } from '../../../../../shared/host.ts';
import type { Route } from './+types/board';
import { POSTS_PER_MINUTE } from '../board-limits.ts';

// A form an app would have (the host's tests post to it as browsers and clients do): a name and a
// message, checked (a 422 with what was typed), rate limited per client (a 429 with Retry-After),
// kept in the app's database, the poster thanked once (a flash) after a 303.

const MAX_LENGTH = 200;

/**
 * A refused post's Retry-After on the page's answer too: React Router sends an action's headers
 * with a document only through the route's `headers` (https://reactrouter.com/how-to/headers).
 */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get('Retry-After');
  return retryAfter === null ? new Headers() : { 'Retry-After': retryAfter };
}

export async function loader({ context }: Route.LoaderArgs) {
  const { db, session } = hostOf(context);
  const posts = await db.selectFrom('board_posts').select(['name', 'message']).orderBy('id', 'desc').limit(50).execute();
  return { posts, posted: session.get('posted') };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db, session, limit, revalidate } = hostOf(context);
  const form = await request.formData();
  const field = (name: string) => String(form.get(name) ?? '').trim();
  const values = { name: field('name'), message: field('message') };
  const retryAfter = await limit('board-posts', { limit: POSTS_PER_MINUTE, windowMs: 60_000 });
  if (retryAfter !== undefined) {
    return data(
      { values, error: `Too many posts: wait ${retryAfter} s.` },
      { status: 429, headers: { 'Retry-After': String(retryAfter) } },
    );
  }
  if (values.name === '' || values.message === '' || values.name.length > MAX_LENGTH || values.message.length > MAX_LENGTH) {
    return data({ values, error: 'A name and a message, each of 1 to 200 characters.' }, { status: 422 });
  }
  await db
    .insertInto('board_posts')
    .values({ ...values, created_at: Date.now() })
    .execute();
  await revalidate({ tag: 'board' });
  session.flash('posted', values.name);
  return redirect('/board');
}

export default function Board({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <h1>Board</h1>
      {loaderData.posted !== undefined && <p data-testid="flash">{`Thanks, ${loaderData.posted}`}</p>}
      <Form method="post">
        <input name="name" defaultValue={actionData?.values.name} aria-label="Name" />
        <textarea name="message" defaultValue={actionData?.values.message} aria-label="Message" />
        {actionData?.error !== undefined && <p data-testid="form-error">{actionData.error}</p>}
        <button type="submit" data-testid="post">
          Post
        </button>
      </Form>
      <ul data-testid="posts">
        {loaderData.posts.map((post, i) => (
          <li key={i}>{`${post.name}: ${post.message}`}</li>
        ))}
      </ul>
    </>
  );
}
