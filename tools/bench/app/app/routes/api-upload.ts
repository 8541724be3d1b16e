import type { ActionFunctionArgs } from 'react-router';
import { hostOf } from '../../../../../shared/host.ts';

// An upload read with the host's helper (its files to disk, removed when the answer ends): what
// the soak's uploads check (tools/soak/uploads.ts) sends eight of at once.

export async function action({ request, context }: ActionFunctionArgs) {
  const { fields, files, tooLarge } = await hostOf(context).parseForm(request);
  return { fields: [...fields], sizes: files.map(({ file }) => file.size), tooLarge: tooLarge.length };
}
