import { notFound, type LoaderArgs } from '../../host.ts';
import { guestbookOf, publicEntry } from './store.server.ts';

// /guestbook/entries/:id: one entry. An unknown id is a 404 this route's own ErrorBoundary shows
// (Entry.tsx): a page that does not exist, not a failure, so no failure line.

export async function loader({ params, context }: LoaderArgs<'/guestbook/entries/:id'>) {
  const entry = await guestbookOf(context).get(params.id);
  if (entry === undefined) notFound('No such entry');
  return { entry: publicEntry(entry) };
}

/**
 * An entry's page is the same for everyone: reused for a minute, and dropped at once when the
 * guestbook changes (its action revalidates the `guestbook` tag: ./guestbook.server.ts).
 */
export const cache = { revalidate: 60, tags: ['guestbook'] };
