import { Form, useActionData } from 'react-router';
import type { ActionData } from '../../host.ts';
import type { action } from './upload.server.ts';

type Answer = ActionData<typeof action>;

/** A title and a file: a file over the route's limit keeps the title and says why, with and without JavaScript. */
export default function Upload() {
  const answer = useActionData<Answer>();
  const error = answer !== undefined && 'errors' in answer ? answer.errors.attachment : undefined;
  const saved = answer !== undefined && 'saved' in answer ? answer.saved : undefined;
  return (
    <>
      <h1>Diagnostic: upload</h1>
      <Form method="post" encType="multipart/form-data" className="upload-form">
        {/* One field a line, on the site's own styles: a diagnostic page brings no stylesheet. */}
        <p>
          <label htmlFor="upload-title">Title</label>
          <br />
          <input id="upload-title" name="title" defaultValue={answer?.values.title} />
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
          Received “{answer?.values.title}” with {saved.filename ?? 'no file'} ({saved.size} bytes).
        </p>
      )}
    </>
  );
}
