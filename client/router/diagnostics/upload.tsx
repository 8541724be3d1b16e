import { data, Form, useActionData, type ActionFunctionArgs } from 'react-router';
import { hostOf, type BodyLimits } from '../../../shared/host.ts';

// A form with a file whose limit is this route's own: a file over it keeps the typed title and
// shows a field error (a 422), where a 413 would lose them. An operator posts a file here to see
// which limit answers, the host's or a proxy's in front of it (docs/forms.md, "Body limits").

/** Small, so a check needs no large file; the whole body keeps the host's cap (BODY_MAX_BYTES). */
export const bodyLimits = { maxFileBytes: 64 * 1024 } satisfies Partial<BodyLimits>;

const KIB = 1024;
const kib = (bytes: number) => `${Math.ceil(bytes / KIB)} KB`;

export async function action({ request, context }: ActionFunctionArgs) {
  const { fields, files, tooLarge } = await hostOf(context).parseForm(request);
  const values = { title: fields.get('title') ?? '' };
  const [over] = tooLarge;
  if (over !== undefined) {
    const attachment = `${over.filename} is ${kib(over.size)}: a file may be at most ${kib(over.limit)}.`;
    return data({ values, errors: { attachment } }, { status: 422 });
  }
  const [upload] = files;
  return { values, saved: { filename: upload?.file.name ?? null, size: upload?.file.size ?? 0 } };
}

/** A title and a file: a file over the route's limit keeps the title and says why, with and without JavaScript. */
export default function Upload() {
  const answer = useActionData<typeof action>();
  const error = answer !== undefined && 'errors' in answer ? answer.errors.attachment : undefined;
  const saved = answer !== undefined && 'saved' in answer ? answer.saved : undefined;
  const title = answer !== undefined && 'values' in answer ? answer.values.title : undefined;
  return (
    <>
      <h1>Diagnostic: upload</h1>
      <Form method="post" encType="multipart/form-data" className="upload-form">
        {/* One field a line, on the site's own styles: a diagnostic page brings no stylesheet. */}
        <p>
          <label htmlFor="upload-title">Title</label>
          <br />
          <input id="upload-title" name="title" defaultValue={title} />
        </p>
        <p>
          <label htmlFor="upload-attachment">Attachment</label>
          <br />
          <input
            id="upload-attachment"
            name="attachment"
            type="file"
            aria-invalid={error !== undefined}
            aria-describedby={error === undefined ? undefined : 'upload-attachment-error'}
          />
        </p>
        {error !== undefined && (
          <p id="upload-attachment-error" className="field-error" role="alert" data-testid="attachment-error">
            {error}
          </p>
        )}
        <button type="submit" data-testid="upload-submit">
          Upload
        </button>
      </Form>
      {saved !== undefined && (
        <p data-testid="upload-saved">
          Received “{title}” with {saved.filename ?? 'no file'} ({saved.size} bytes).
        </p>
      )}
    </>
  );
}
