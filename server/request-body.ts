import type { Request } from 'express';
import busboy from 'busboy';
import type { RequestBody } from '../shared/page-seam.ts';
import { limitBody } from './body-limit.ts';
import { httpError } from './failures/http-error.ts';

// An action's body, read and parsed by the host before the action runs (docs/forms.md): a form
// (urlencoded or multipart) becomes FormData, JSON its value. Every kind is capped; a declared
// Content-Length over the cap is refused before a byte is read, a streamed body as it passes it
// (body-limit.ts, which closes the connection). Multipart goes through busboy as it streams, with
// its part limits. What cannot be parsed is a 400 that says why; nothing of a refused body is kept.

/** A form or JSON document a person typed: far below this. */
export const MAX_FORM_BYTES = 65_536;
/** A multipart upload: the form and its files together. */
export const MAX_MULTIPART_BYTES = 1_048_576;
/** Fields (and query-style pairs) in one form: a long form has dozens. */
export const MAX_FIELDS = 256;
export const MAX_FILES = 4;
export const MAX_FILE_BYTES = 512 * 1_024;
export const MAX_FIELD_BYTES = MAX_FORM_BYTES;

const URLENCODED = /^application\/x-www-form-urlencoded\s*(;|$)/i;
const MULTIPART = /^multipart\/form-data\s*(;|$)/i;
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;
const IDENTITY = /^\s*identity\s*$/i;

const tooLarge = (what: string) => httpError(413, `Request body too large: ${what}`, { headers: { Connection: 'close' } });
const malformed = (what: string, cause?: unknown) => httpError(400, `Malformed request body: ${what}`, { cause });

/** The whole body, at most `maxBytes`, into a Buffer (body-limit.ts). */
function readCapped(req: Request, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // body-limit.ts hands on an HttpError (413, 415, 400) or nothing.
    const done = (error?: unknown) => (error instanceof Error ? reject(error) : resolve(req.body as Buffer));
    limitBody(maxBytes)(req, req.res!, done);
  });
}

/** UTF-8 or a 400: a replacement character would change what the user sent without a word. */
function utf8(bytes: Buffer, what: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (cause) {
    throw malformed(`${what} is not valid UTF-8`, cause);
  }
}

function urlencoded(text: string): FormData {
  const form = new FormData();
  if (text === '') return form;
  const pairs = text.split('&');
  if (pairs.length > MAX_FIELDS) throw tooLarge(`at most ${MAX_FIELDS} fields`);
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const [name, value] = at === -1 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    try {
      // decodeURIComponent refuses a broken escape and percent-encoded bytes that are not UTF-8.
      form.append(decodeURIComponent(name.replace(/\+/g, ' ')), decodeURIComponent(value.replace(/\+/g, ' ')));
    } catch (cause) {
      throw malformed('a field is not valid percent-encoded UTF-8', cause);
    }
  }
  return form;
}

function multipart(req: Request): Promise<FormData> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_MULTIPART_BYTES) return Promise.reject(tooLarge(`at most ${MAX_MULTIPART_BYTES} bytes`));
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: {
          fields: MAX_FIELDS,
          fieldSize: MAX_FIELD_BYTES,
          files: MAX_FILES,
          fileSize: MAX_FILE_BYTES,
          parts: MAX_FIELDS + MAX_FILES,
        },
      });
    } catch (cause) {
      return reject(malformed('its multipart boundary is missing or invalid', cause));
    }
    const form = new FormData();
    let received = 0;
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.pause(); // nothing more is read; a 413 closes the connection
      reject(error);
    };
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_MULTIPART_BYTES) fail(tooLarge(`at most ${MAX_MULTIPART_BYTES} bytes`));
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated || info.nameTruncated) return fail(tooLarge(`a field of at most ${MAX_FIELD_BYTES} bytes`));
      form.append(name, value);
    });
    parser.on('file', (name, file, info) => {
      const chunks: Buffer[] = [];
      file.on('data', (chunk: Buffer) => chunks.push(chunk));
      file.on('limit', () => fail(tooLarge(`a file of at most ${MAX_FILE_BYTES} bytes`)));
      file.on('end', () => {
        if (!failed) form.append(name, new File([new Uint8Array(Buffer.concat(chunks))], info.filename ?? 'blob', { type: info.mimeType }));
      });
    });
    parser.on('partsLimit', () => fail(tooLarge(`at most ${MAX_FIELDS + MAX_FILES} parts`)));
    parser.on('fieldsLimit', () => fail(tooLarge(`at most ${MAX_FIELDS} fields`)));
    parser.on('filesLimit', () => fail(tooLarge(`at most ${MAX_FILES} files`)));
    parser.on('error', (cause) => fail(malformed('broken multipart', cause)));
    parser.on('close', () => !failed && resolve(form));
    // The client left mid-body: its access line says so; nothing failed.
    req.on('error', () => fail(httpError(400, 'Request body incomplete: the connection closed before its end')));
    req.pipe(parser);
  });
}

/** The body of a write, parsed: a 413, 415 or 400 (an HttpError) when it cannot be. */
export async function readRequestBody(req: Request): Promise<RequestBody> {
  const type = req.headers['content-type'] ?? '';
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && !IDENTITY.test(encoding)) {
    throw httpError(415, 'Unsupported Content-Encoding: send the body uncompressed', { headers: { Connection: 'close' } });
  }
  if (MULTIPART.test(type)) return { form: await multipart(req) };
  if (JSON_TYPE.test(type)) {
    const text = utf8(await readCapped(req, MAX_FORM_BYTES), 'the JSON');
    try {
      return { json: JSON.parse(text) as unknown };
    } catch (cause) {
      throw malformed('invalid JSON', cause);
    }
  }
  const unsupported = httpError(415, 'Unsupported Content-Type: send a form (urlencoded or multipart) or JSON');
  if (type !== '' && !URLENCODED.test(type)) throw unsupported;
  const bytes = await readCapped(req, MAX_FORM_BYTES);
  // No type and no body (a bare button's post) is an empty form; a body of no type is not one.
  if (type === '' && bytes.length > 0) throw unsupported;
  return { form: urlencoded(utf8(bytes, 'the form')) };
}
