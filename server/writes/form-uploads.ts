import { createWriteStream, openAsBlob, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Busboy from '@fastify/busboy';
import type { BodyLimits } from '../../shared/body-limits.ts';
import type { FormFile, OversizedFile, ParsedForm, ParseFormOptions } from '../../shared/form-upload.ts';
import { MAX_FORM_PARTS } from '../config/body-limits.ts';
import { httpError, HttpError } from '../failures/errors.ts';

// The host's upload helper (docs/forms.md, "Files and their limits"): an action's form parsed once,
// as it arrives, its files written to this request's own folder on disk and removed when the
// answer ends unless the action kept them (`hostOf(context).files.set(key, file)`). Nothing is held
// whole in memory: a text field is at most maxFieldBytes, a file passes through in Node's chunks.
// A file over its limit is not refused: its bytes are counted and dropped, and it is listed in
// `tooLarge`, so the action answers a field error with everything typed kept (a 413 loses it all).
// Too many fields or files, or a field over its limit, is a 413; a form that does not parse a 400.
//
// Why busboy (@fastify/busboy) and not @remix-run/form-data-parser: that parser holds each part
// whole before its upload handler sees it (@remix-run/multipart-parser's MultipartPart.content);
// one 100 MB file raised a process's RSS by 265 MB (docs/forms.md). busboy streams each file.

/** Part headers a browser sends: a few; busboy's default (2,000) only costs the parser. */
const MAX_HEADER_PAIRS = 32;
/** A part's headers, a field's name and a file's name among them (busboy's default: 80 KiB). */
const MAX_PART_HEADER_BYTES = 8 * 1_024;

const tooLarge = (what: string) => httpError(413, `Request body too large: ${what}`);
const malformed = (what: string, cause?: unknown) => httpError(400, `Malformed request body: ${what}`, { cause });

const MULTIPART = /^multipart\/form-data\s*(;|$)/i;
const URLENCODED = /^application\/x-www-form-urlencoded\s*(;|$)/i;

export interface FormUploads {
  /** The request's form, its files on disk (see above). */
  parse(request: Request, limits: BodyLimits, options?: ParseFormOptions): Promise<ParsedForm>;
  /** Removes the files of this request that were not kept: when its answer has ended. */
  clear(): Promise<void>;
}

/** The upload helper of one request, writing under `root` (UPLOAD_DIR). */
export function formUploads(root: string): FormUploads {
  let folder: Promise<string> | undefined;
  const ownFolder = () => (folder ??= mkdir(root, { recursive: true, mode: 0o700 }).then(() => mkdtemp(join(root, 'upload-'))));
  return {
    async parse(request, limits, options = {}) {
      const type = request.headers.get('content-type') ?? '';
      if (URLENCODED.test(type)) {
        // Read whole by the host already, and held to the text limits (./request-body.ts).
        const fields = new URLSearchParams(await request.text());
        return { fields, files: [], tooLarge: [] };
      }
      if (!MULTIPART.test(type)) throw httpError(400, 'Expected a form (urlencoded or multipart).');
      const maxFileBytes = Math.min(options.maxFileBytes ?? limits.maxFileBytes, limits.maxFileBytes);
      return parseMultipart(request, type, limits, maxFileBytes, ownFolder);
    },
    async clear() {
      const made = await folder?.catch(() => undefined);
      if (made !== undefined) await rm(made, { recursive: true, force: true });
    },
  };
}

type Entry = { file: FormFile } | { over: OversizedFile } | undefined;

async function parseMultipart(
  request: Request,
  type: string,
  limits: BodyLimits,
  maxFileBytes: number,
  folder: () => Promise<string>,
): Promise<ParsedForm> {
  const fields = new URLSearchParams();
  const entries: Promise<Entry>[] = [];
  // The files being read: busboy leaves the current one open when its body fails, so the parse
  // ends them itself, or their writes (and the space of their deleted files) would stay open.
  const reading = new Set<Readable>();
  const stop = new AbortController();
  // The first reason the parse stops: a limit (413), or a file that could not be written.
  let failure: Error | undefined;
  const fail = (error: unknown) => {
    failure ??= error instanceof Error ? error : new Error(String(error));
    stop.abort(failure);
  };
  let busboy: ReturnType<typeof Busboy>;
  try {
    busboy = Busboy({
      headers: { 'content-type': type },
      limits: {
        fields: limits.maxFields,
        files: limits.maxFiles,
        parts: MAX_FORM_PARTS,
        fieldSize: limits.maxFieldBytes,
        // busboy 3.2 has no limit of a field's name: its part's header bounds it.
        headerSize: MAX_PART_HEADER_BYTES,
        headerPairs: MAX_HEADER_PAIRS,
      },
    });
  } catch (cause) {
    throw malformed('broken multipart or a missing boundary', cause);
  }
  let parseError: unknown;
  busboy.on('error', (error) => (parseError ??= error));
  // busboy cuts a field at its limit and says so when the field ends: refused then.
  busboy.on('field', (name, value, _nameTruncated, valueTruncated) => {
    if (valueTruncated) return fail(tooLarge(`a field of at most ${limits.maxFieldBytes} bytes`));
    fields.append(name, value);
  });
  busboy.on('file', (name, stream, filename, _encoding, mimeType) => {
    reading.add(stream);
    const saving = saveFile(stream, { name, filename: filename ?? '', mimeType }, maxFileBytes, folder, entries.length);
    entries.push(
      saving.then(
        (entry) => (reading.delete(stream), entry),
        (error: unknown) => {
          reading.delete(stream);
          // A write that failed (a full disk, UPLOAD_DIR gone) is the server's failure: the part
          // is read to its end so the parse can stop, and the request answers 500.
          stream.resume();
          fail(error);
          return undefined;
        },
      ),
    );
  });
  busboy.on('fieldsLimit', () => fail(tooLarge(`at most ${limits.maxFields} fields`)));
  busboy.on('filesLimit', () => fail(tooLarge(`at most ${limits.maxFiles} files`)));
  busboy.on('partsLimit', () => fail(tooLarge(`at most ${MAX_FORM_PARTS} parts`)));
  try {
    if (request.body === null) throw malformed('an empty multipart body');
    await pipeline(Readable.fromWeb(request.body as import('node:stream/web').ReadableStream<Uint8Array>), busboy, { signal: stop.signal });
  } catch (error) {
    // The host's refusal of the stream (413 past the cap, 408, a client gone: server/edge/body-limit.ts)
    // is thrown as it is; the parser's, a 400; anything else (a body the app had read already) the app's.
    // (busboy re-emits the error it was destroyed with: the host's is checked first).
    fail(error === parseError && !(error instanceof HttpError) ? malformed('broken multipart', error) : error);
  }
  if (failure !== undefined) for (const stream of reading) stream.destroy();
  const saved = await Promise.all(entries);
  if (failure !== undefined) throw failure;
  const parsed: ParsedForm = { fields, files: [], tooLarge: [] };
  for (const entry of saved) {
    if (entry === undefined) continue;
    if ('file' in entry) parsed.files.push(entry.file);
    else parsed.tooLarge.push(entry.over);
  }
  return parsed;
}

/** One file part to disk, counted; past `limit` its bytes are dropped and it is marked. An empty input (no name, no bytes) is none. */
async function saveFile(
  stream: NodeJS.ReadableStream,
  { name, filename, mimeType }: { name: string; filename: string; mimeType: string },
  limit: number,
  folder: () => Promise<string>,
  index: number,
): Promise<Entry> {
  const path = join(await folder(), String(index));
  let out: WriteStream | undefined = createWriteStream(path, { mode: 0o600 });
  // A write that fails (a full disk) is thrown below; one pending when a file passes its limit is dropped with it.
  let writeError: Error | undefined;
  out.on('error', (error) => (writeError ??= error));
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (out === undefined) continue;
      if (writeError !== undefined) throw writeError;
      if (size > limit) {
        out.destroy();
        out = undefined;
        await unlink(path).catch(() => undefined);
        continue;
      }
      if (!out.write(chunk)) await once(out, 'drain'); // rejects if the write fails
    }
  } catch (error) {
    // The part was cut (the parse failed) or the write failed: its file closes now, not at exit.
    out?.destroy();
    throw error;
  }
  if (out === undefined) return { over: { name, filename, size, limit } };
  const written = out;
  await new Promise<void>((resolve, reject) => written.end((error?: Error | null) => (error ? reject(error) : resolve())));
  if (filename === '' && size === 0) return undefined;
  // A Blob of the file on disk: read when the action reads it, never here.
  const blob = await openAsBlob(path, { type: mimeType });
  return { file: { name, file: new File([blob], filename, { type: mimeType }) } };
}
