import { notFound, type LoaderArgs } from '../../host.ts';
import { guestbook, publicEntry } from './store.server.ts';

// /guestbook/entries/:id: one entry. An unknown id is a 404 this route's own ErrorBoundary shows
// (Entry.tsx): a page that does not exist, not a failure, so no failure line.

export async function loader({ params }: LoaderArgs<'/guestbook/entries/:id'>) {
  const entry = (await guestbook.list()).find((candidate) => candidate.id === params.id);
  if (entry === undefined) notFound('No such entry');
  return { entry: publicEntry(entry) };
}
