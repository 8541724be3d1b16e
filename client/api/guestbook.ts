import { hostOf } from '../../shared/host.ts';
import { guestbookOf, publicEntry } from '../pages/guestbook/store.server.ts';
import type { Route } from './+types/guestbook';

/** GET and HEAD /api/guestbook: the entries as JSON, newest first (a resource route: no page). */
export async function loader({ context }: Route.LoaderArgs) {
  return Response.json(
    { entries: (await guestbookOf(hostOf(context)).list()).map(publicEntry) },
    // The list changes with every post: a cache may keep it only while it revalidates.
    { headers: { 'Cache-Control': 'no-cache' } },
  );
}
