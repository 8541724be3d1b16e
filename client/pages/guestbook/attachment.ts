import { data } from 'react-router';
import { hostOf } from '../../../shared/host.ts';
import type { Route } from './+types/attachment';
import { attachmentResponse } from './attachments.server.ts';
import { guestbookOf } from './store.server.ts';

// GET /guestbook/entries/:id/attachment: an entry's attached file, as a download (a resource
// route: no page). An entry without one, or gone, is a 404.

export async function loader({ params, context }: Route.LoaderArgs) {
  const host = hostOf(context);
  const entry = await guestbookOf(host).get(params.id);
  const download = entry?.attachment == null ? null : await attachmentResponse(host, entry.id, entry.attachment);
  if (download === null) throw data('No such attachment', { status: 404 });
  return download;
}
