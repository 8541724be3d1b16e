import { data } from 'react-router';
import { parseFormData, type ActionArgs, type BodyLimits } from '../../host.ts';

// A form with a file whose limit is this route's own: a file over it keeps the typed title and
// shows a field error (a 422), where a 413 would lose them. An operator posts a file here to see
// which limit answers, the host's or a proxy's in front of it (docs/forms.md, "Body limits").

/** Small, so a check needs no large file; the whole body keeps the host's cap (BODY_MAX_BYTES). */
export const bodyLimits = { maxFileBytes: 64 * 1024 } satisfies Partial<BodyLimits>;

const KIB = 1024;
const kib = (bytes: number) => `${Math.ceil(bytes / KIB)} KB`;

export async function action({ request }: ActionArgs) {
  const { fields, files, tooLarge } = await parseFormData(request);
  const values = { title: fields.get('title') ?? '' };
  const [over] = tooLarge;
  if (over !== undefined) {
    const attachment = `${over.filename} is ${kib(over.size)}: a file may be at most ${kib(over.limit)}.`;
    return data({ values, errors: { attachment } }, { status: 422 });
  }
  const [upload] = files;
  return { values, saved: { filename: upload?.file.name ?? null, size: upload?.file.size ?? 0 } };
}
