// What an action gets from the host's upload helper, `hostOf(context).parseForm(request)`
// (server/writes/form-uploads.ts; docs/forms.md, "Files and their limits").

/** A file the form carried within its limit, on the server's disk until the answer ends. */
export interface FormFile {
  /** The field's name. */
  name: string;
  /** Read from disk when read: keep it with `hostOf(context).files.set(key, file)`, or it is removed. */
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

/** A lower file limit for one call than the route's `bodyLimits.maxFileBytes`. */
export interface ParseFormOptions {
  maxFileBytes?: number;
}
