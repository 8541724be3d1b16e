import { createHash, randomBytes } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { Transform } from 'node:stream';
import type { TraceMeta } from '../../shared/runtime.ts';

// A stored page is a template: it is rendered with a marker where each per-request value goes
// (the CSP nonce, the request id, the host name, the trace's values), and every answer gets
// its own values filled in, a fresh render's as it streams and a stored page's whole
// (docs/caching.md, "Per-request values"). Markers are letters and digits, which React's
// escaping and the runtime's JSON leave as they are, all of one length. Each render has markers
// of its own, random, made when it begins: only the host writes them, so values are filled only
// where the host put them, never where a page's content (a guestbook message) spells a marker
// it saw somewhere; the stored entry carries its markers' id.

export interface PageValues {
  nonce: string;
  requestId: string;
  hostname: string;
  trace?: TraceMeta;
}

/** What may be written where a marker stood, unescaped: in an attribute, in text or in a script's JSON alike. */
const SAFE_VALUE = /^[\w.:,;=%+/@[\]-]*$/;
const ROLES = { nonce: 'n', requestId: 'i', hostname: 'h', traceparent: 'p', sentryTrace: 't', baggage: 'b' } as const;

/** Which trace values the host writes into a page: none without tracing, Sentry's two beside the traceparent with Sentry. */
export type TraceShape = { sentry: boolean } | undefined;

/** Bytes and roles, alternating: even indexes are the page's bytes, odd ones name a marker's role. */
export type TemplatePieces = readonly (Buffer | string)[];

export interface PageTemplate {
  /** The release's namespace: stored entries are keyed in it, so a replica of another build never reads them. */
  readonly namespace: string;
  /** A new render's markers' id. */
  newMarker(): string;
  /** The values a template with these markers is rendered with: every answer's trace is its own, a regeneration's included. */
  markers(marker: string): PageValues;
  /** Whether these values can be written into a page as they are; if not, the request renders without the cache. */
  fits(values: PageValues): boolean;
  /** A template cut at its markers and its text encoded, to be filled many times (`fillPieces`) without searching or encoding it again. */
  piecesOf(template: string, marker: string): TemplatePieces;
  fillPieces(pieces: TemplatePieces, values: PageValues): Buffer;
  /** Fills a render as it streams: a marker split across two writes is held back until it is whole. */
  filler(values: PageValues, marker: string): Transform;
}

/** A marker's id: 128 random bits, as hex. */
const MARKER_BYTES = 16;
export const MARKER_ID = /^[0-9a-f]{32}$/;

/** `secret`: DIGEST_KEY where set (one per fleet), so the namespace says nothing of the build to a reader of Redis. */
export function createPageTemplate(build: string, secret: string, traceShape: TraceShape): PageTemplate {
  const namespace = createHash('sha256').update(`${secret}\0${build}`).digest('hex').slice(0, 16);
  const markerOf = (id: string, role: string) => `rsh${id}${role}`;
  /** How many characters at the end of `text` may begin a marker of `prefix` (0 almost always). */
  const partialMarkerAt = (text: string, prefix: string) => {
    for (let length = Math.min(prefix.length, text.length); length > 0; length--) {
      if (text.endsWith(prefix.slice(0, length))) return length;
    }
    return 0;
  };
  const patternOf = (id: string) => new RegExp(`rsh${id}([nihptb])`, 'g');
  const byRole = (values: PageValues): Record<string, string> => ({
    n: values.nonce,
    i: values.requestId,
    h: values.hostname,
    p: values.trace?.traceparent ?? '',
    t: values.trace?.sentryTrace ?? '',
    b: values.trace?.baggage ?? '',
  });
  const fill = (template: string, pattern: RegExp, values: PageValues) => {
    const roles = byRole(values);
    return template.replace(pattern, (_, role: string) => roles[role]!);
  };
  // Split keeps the pattern's group: even indexes are text, odd ones a role. The text is encoded
  // here, once: for a 10 KB page, joining the strings and encoding the result took 13 µs where
  // copying its bytes takes 4–5 (measured in isolation; under load it is within the bench's noise).
  const piecesOf = (template: string, marker: string): TemplatePieces =>
    template.split(patternOf(marker)).map((piece, index) => (index % 2 === 0 ? Buffer.from(piece) : piece));
  const fillPieces = (pieces: TemplatePieces, values: PageValues) => {
    const roles = byRole(values);
    const chunks: Buffer[] = [pieces[0] as Buffer];
    for (let i = 1; i < pieces.length; i += 2) chunks.push(Buffer.from(roles[pieces[i] as string]!), pieces[i + 1] as Buffer);
    return Buffer.concat(chunks);
  };
  return {
    namespace,
    newMarker: () => randomBytes(MARKER_BYTES).toString('hex'),
    markers: (id) => ({
      nonce: markerOf(id, ROLES.nonce),
      requestId: markerOf(id, ROLES.requestId),
      hostname: markerOf(id, ROLES.hostname),
      trace: traceShape && {
        traceparent: markerOf(id, ROLES.traceparent),
        ...(traceShape.sentry && { sentryTrace: markerOf(id, ROLES.sentryTrace), baggage: markerOf(id, ROLES.baggage) }),
      },
    }),
    fits: (values) => Object.values(byRole(values)).every((value) => SAFE_VALUE.test(value)),
    piecesOf,
    fillPieces,
    filler(values, marker) {
      const decoder = new StringDecoder('utf8');
      const pattern = patternOf(marker);
      const prefix = markerOf(marker, '');
      let held = '';
      return new Transform({
        transform(chunk: Buffer, _encoding, done) {
          const text = fill(held + decoder.write(chunk), pattern, values);
          // Only a marker's beginning can be left at the end once the whole ones are replaced: hold
          // back that, and nothing else (held text waits for the next write, a streamed section).
          let cut = text.length - partialMarkerAt(text, prefix);
          // Never between the two halves of a character outside the BMP.
          if (cut > 0 && /[\uD800-\uDBFF]/.test(text[cut - 1]!)) cut -= 1;
          held = text.slice(cut);
          done(null, text.slice(0, cut));
        },
        flush(done) {
          done(null, fill(held + decoder.end(), pattern, values));
        },
      });
    },
  };
}
