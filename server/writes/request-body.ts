import type { Request } from 'express';
import type { BodyLimits } from '../config/body-limits.ts';

/** A write's body as the client sent it, read, capped and checked; an upload's as a stream. */
export interface RequestBody {
  /** A form's or JSON's bytes, read whole; a multipart upload's stream, read by the action. */
  content: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>;
  /** Whether the body was read to its end. */
  complete(): boolean;
  /** An upload whose answer goes without the rest of it: read and dropped for a bounded time (server/edge/body-limit.ts). */
  linger(): void;
  /** Its Content-Type, as sent (an empty body of no type is an empty urlencoded form). */
  type: string;
  /** The limits it was held to. */
  limits: BodyLimits;
}
import { limitBody, streamBody } from '../edge/body-limit.ts';
import { httpError } from '../failures/errors.ts';

// An action's body, read once by the host before the action runs, capped, checked and handed
// on exactly as the client sent it (docs/forms.md): the action's `request.formData()`,
// `request.json()` and `request.text()` parse the client's own bytes. Re-encoding a parsed body
// (JSON.stringify of a value nested 20,000 deep overflows the stack) made a legal body a host 500,
// and turned a urlencoded form into multipart. The host checks what it must: a declared
// Content-Length over the cap is refused before a byte is read, a streamed body as it passes it
// (body-limit.ts, which closes the connection); a form's field count and encoding and JSON's
// syntax are checked on the bytes read. What cannot be parsed is a 400 that says why, what is too
// large a 413; nesting depth is the action's parser's business. The limits are the route's
// (server/config/body-limits.ts).
//
// A multipart upload is the exception: it is never held whole. The action gets it as a stream
// under the same cap and timeout, and the host's upload helper (./form-uploads.ts) parses it
// once, as it arrives, files to disk, its parts held to the route's limits there.

const URLENCODED = /^application\/x-www-form-urlencoded\s*(;|$)/i;
const MULTIPART = /^multipart\/form-data\s*(;|$)/i;
/** RFC 7578 §4.1: a multipart form's type names its boundary. */
const MULTIPART_BOUNDARY = /;\s*boundary=("[^"]+"|[^\s;]+)/i;
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

const tooLarge = (what: string) => httpError(413, `Request body too large: ${what}`, { headers: { Connection: 'close' } });
const malformed = (what: string, cause?: unknown) => httpError(400, `Malformed request body: ${what}`, { cause });

/** The whole body, at most `maxBytes` and within `timeoutMs`, into a Buffer (body-limit.ts). */
function readCapped(req: Request, maxBytes: number, timeoutMs: number): Promise<Buffer<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    // body-limit.ts hands on an HttpError (413, 415, 400) or nothing.
    const done = (error?: unknown) => (error instanceof Error ? reject(error) : resolve(req.body as Buffer<ArrayBuffer>));
    limitBody(maxBytes, timeoutMs)(req, req.res!, done);
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

/** A urlencoded form's field count and percent-encoding, checked as URLSearchParams would decode it. */
function checkUrlencoded(text: string, { maxFields }: BodyLimits): void {
  if (text === '') return;
  const pairs = text.split('&');
  if (pairs.length > maxFields) throw tooLarge(`at most ${maxFields} fields`);
  for (const pair of pairs) {
    try {
      // decodeURIComponent refuses a broken escape and percent-encoded bytes that are not UTF-8,
      // which URLSearchParams would pass on silently as other characters.
      decodeURIComponent(pair.replace(/\+/g, ' '));
    } catch (cause) {
      throw malformed('a field is not valid percent-encoded UTF-8', cause);
    }
  }
}

/** A body read whole was read to its end: nothing to linger on. */
const read = () => true;
const nothingLeft = () => {};

/** An empty body with no type is what a bare button posts: an empty form. */
const EMPTY_FORM_TYPE = 'application/x-www-form-urlencoded';

/** The body of a write, as sent and checked against `limits`: a 413, 415 or 400 (an HttpError) when it cannot be used. */
export async function readRequestBody(req: Request, timeoutMs: number, limits: BodyLimits): Promise<RequestBody> {
  const type = req.headers['content-type'] ?? '';
  if (MULTIPART.test(type)) {
    if (!MULTIPART_BOUNDARY.test(type)) throw malformed('multipart without a boundary');
    const { stream, complete, linger } = streamBody(req, limits.maxBytes, timeoutMs);
    return { content: stream, complete, linger, type, limits };
  }
  if (JSON_TYPE.test(type)) {
    const bytes = await readCapped(req, limits.maxTextBytes, timeoutMs);
    const text = utf8(bytes, 'the JSON');
    try {
      // V8's JSON.parse is not recursive: any depth under the cap parses; the value is dropped.
      JSON.parse(text);
    } catch (cause) {
      throw malformed('invalid JSON', cause);
    }
    return { content: bytes, complete: read, linger: nothingLeft, type, limits };
  }
  const unsupported = httpError(415, 'Unsupported Content-Type: send a form (urlencoded or multipart) or JSON');
  if (type !== '' && !URLENCODED.test(type)) throw unsupported;
  const bytes = await readCapped(req, limits.maxTextBytes, timeoutMs);
  // No type and no body (a bare button's post) is an empty form; a body of no type is not one.
  if (type === '' && bytes.length > 0) throw unsupported;
  checkUrlencoded(utf8(bytes, 'the form'), limits);
  return { content: bytes, complete: read, linger: nothingLeft, type: type === '' ? EMPTY_FORM_TYPE : type, limits };
}
