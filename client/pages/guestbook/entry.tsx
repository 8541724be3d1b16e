import { data, Link } from 'react-router';
import { HostErrorBoundary, hostOf, useFailure } from '../../../shared/host.ts';
import type { Route } from './+types/entry';
import { guestbookOf, publicEntry } from './store.server.ts';

// /guestbook/entries/:id: one entry. An unknown id is a 404 this route's own ErrorBoundary shows:
// a page that does not exist, not a failure, so no failure line.

export async function loader({ params, context }: Route.LoaderArgs) {
  const entry = await guestbookOf(hostOf(context)).get(params.id);
  if (entry === undefined) throw data('No such entry', { status: 404 });
  return { entry: publicEntry(entry) };
}

/**
 * An entry's page is the same for everyone: reused for a minute, and dropped at once when the
 * guestbook changes (its action revalidates the `guestbook` tag: ./guestbook.tsx).
 */
export const cache = { revalidate: 60, tags: ['guestbook'] };

export function meta({ loaderData }: Route.MetaArgs) {
  if (loaderData === undefined) return [{ title: 'Guestbook' }];
  return [{ title: `${loaderData.entry.name} · Guestbook` }, { name: 'description', content: loaderData.entry.message.slice(0, 160) }];
}

export default function Entry({ loaderData }: Route.ComponentProps) {
  const { entry } = loaderData;
  return (
    <article>
      <p>
        <Link to="/guestbook" prefetch="intent">
          ← The guestbook
        </Link>
      </p>
      <h1>{entry.name}</h1>
      <p>
        <time dateTime={entry.createdAt.toISOString()}>{entry.createdAt.toISOString().slice(0, 10)}</time>
      </p>
      <p data-testid="entry-message">{entry.message}</p>
    </article>
  );
}

/** The route's own failure page: a deleted or unknown entry says so; anything else is the host's page. */
export function ErrorBoundary() {
  const failure = useFailure();
  if (failure.status !== 404) return <HostErrorBoundary inline />;
  return (
    <section role="alert" data-testid="entry-missing">
      <h1>{failure.message ?? 'No such entry'}</h1>
      <p>It may have been deleted by the person who wrote it.</p>
      <p>
        <Link to="/guestbook">Back to the guestbook</Link>
      </p>
    </section>
  );
}
