// An action's form with each file held to its limit (docs/forms.md, "Files and their limits").
// The host refuses a body over the whole cap with a 413 before reading past it, and a form
// with too many fields or files; it does not refuse one file over its own limit, because a 413
// loses everything the user typed. This marks that file instead, so the action can answer 422
// with a field error and the values. Written over the Fetch API's formData(), the parser the
// host already checked the body with (server/writes/request-body.ts): the body is in memory
// whole by then, so a streaming parser would save nothing.
import { data } from 'react-router';

/** A file the form carried within its limit. */
export interface FormFile {
  /** The field's name. */
  name: string;
  file: File;
}

/** A file over its limit: not kept, only what the page needs to say so. */
export interface OversizedFile {
  /** The field's name. */
  name: string;
  /** The name the browser sent. */
  filename: string;
  /** Its size in bytes, as received. */
  size: number;
  /** The limit it is over, in bytes. */
  limit: number;
}

export interface ParsedForm {
  /** The text fields in order, repeated names kept: `fields.get('title')`, `fields.getAll('tag')`. */
  fields: URLSearchParams;
  /** The files within their limit, in order. A file input left empty sends none. */
  files: FormFile[];
  /** The files over their limit. */
  tooLarge: OversizedFile[];
}

const FORM_TYPES = /^(multipart\/form-data|application\/x-www-form-urlencoded)\s*(;|$)/i;

/**
 * The action's form: its text fields, its files, and the files over `maxFileBytes` marked rather
 * than refused (the limits the request's body was held to: `parseFormData(request,
 * hostOf(context).bodyLimits)`, its route's `bodyLimits` else BODY_MAX_FILE_BYTES). A body that is
 * not a form is a 400. Reads the request's body: call it once, instead of `formData()`.
 */
export async function parseFormData(request: Request, limits: { maxFileBytes: number }): Promise<ParsedForm> {
  if (!FORM_TYPES.test(request.headers.get('content-type') ?? ''))
    throw data('Expected a form (urlencoded or multipart).', { status: 400 });
  const limit = limits.maxFileBytes;
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw data('The form could not be read.', { status: 400 });
  }
  const parsed: ParsedForm = { fields: new URLSearchParams(), files: [], tooLarge: [] };
  for (const [name, value] of form) {
    if (typeof value === 'string') parsed.fields.append(name, value);
    // An empty file input is a part with no name and no bytes: no file at all.
    else if (value.name === '' && value.size === 0) continue;
    else if (value.size > limit) parsed.tooLarge.push({ name, filename: value.name, size: value.size, limit });
    else parsed.files.push({ name, file: value });
  }
  return parsed;
}
