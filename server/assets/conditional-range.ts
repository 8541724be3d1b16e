import type { IncomingHttpHeaders } from 'node:http';

// What a GET or HEAD of fixed bytes with a strong ETag answers (RFC 9110 §13 preconditions, in
// the order of §13.2.2, and §14 ranges): serve-static's rules for files, for bytes the server
// holds itself (server/pages/prerendered-pages.ts). One range is served; a request for several
// gets the whole (RFC 9110 §14.2 lets a server ignore Range), as serve-static does.

export type Answer = { status: 200 } | { status: 206; start: number; end: number } | { status: 304 } | { status: 412 } | { status: 416 };

/** `"a", W/"b"` → the entity tags listed; `*` stands for any. */
function tagsOf(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
}

/** Weak comparison (RFC 9110 §8.8.3.2): If-None-Match's. */
const weakMatch = (header: string, etag: string) => tagsOf(header).some((tag) => tag === '*' || tag.replace(/^W\//, '') === etag);
/** Strong comparison: If-Match's and If-Range's; a weak tag never matches. */
const strongMatch = (header: string, etag: string) => tagsOf(header).some((tag) => tag === '*' || tag === etag);

/** `bytes=a-b`, `a-` or `-n` over `length` bytes: one range, or why not (several, malformed, beyond the end). */
function rangeOf(header: string, length: number): { start: number; end: number } | 'whole' | 'unsatisfiable' {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, another unit, or a malformed one: the whole representation, as if none was asked.
  if (match === null) return 'whole';
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return 'whole';
  if (first === '') {
    const suffix = Number(last);
    return suffix === 0 || length === 0 ? 'unsatisfiable' : { start: Math.max(0, length - suffix), end: length - 1 };
  }
  const start = Number(first);
  const end = last === '' ? length - 1 : Math.min(Number(last), length - 1);
  if (last !== '' && Number(last) < start) return 'whole';
  return start >= length ? 'unsatisfiable' : { start, end };
}

/** A header's value, repeated lines joined as one list (RFC 9110 §5.3). */
const listOf = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);

export function conditionalAnswer(method: string, headers: IncomingHttpHeaders, etag: string, length: number): Answer {
  const ifMatch = listOf(headers['if-match']);
  if (ifMatch !== undefined && !strongMatch(ifMatch, etag)) return { status: 412 };
  const ifNoneMatch = listOf(headers['if-none-match']);
  if (ifNoneMatch !== undefined && weakMatch(ifNoneMatch, etag)) return { status: 304 };
  // Ranges are defined for GET alone (RFC 9110 §14.2); If-Range with another tag asks for the whole.
  const range = headers.range;
  if (method !== 'GET' || range === undefined) return { status: 200 };
  const ifRange = listOf(headers['if-range']);
  if (ifRange !== undefined && !strongMatch(ifRange, etag)) return { status: 200 };
  const asked = rangeOf(range, length);
  if (asked === 'whole') return { status: 200 };
  if (asked === 'unsatisfiable') return { status: 416 };
  return { status: 206, ...asked };
}
