import type { CacheEntry } from './cache-store.ts';
import { MARKER_ID } from './page-template.ts';

// An entry read back from a store the host does not own alone (Redis, shared by the fleet and
// perhaps by other software): whatever it holds is checked before a byte of it is answered. One
// that does not check out is a miss (the page renders as without a cache), never a 500: a status
// outside 2xx, a header Node would refuse to write, a body that is not text (docs/caching.md).

/** RFC 9110 §5.1's token: a header's name. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What Node writes in a header's value (its checkInvalidHeaderChar; RFC 9110 §5.5): anything else throws, and the answer would be a 500. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** Header names to string values, each writable as it is; `lowercase`: names as Node gives request headers. */
function isHeaders(value: unknown, lowercase: boolean): value is Record<string, string> {
  return (
    isRecord(value) &&
    Object.entries(value).every(
      ([name, text]) =>
        HEADER_NAME.test(name) && (!lowercase || name === name.toLowerCase()) && typeof text === 'string' && HEADER_VALUE.test(text),
    )
  );
}

/** Why `value` is not an entry this host wrote, or undefined when it is one. */
function problemOf(value: unknown): string | undefined {
  if (!isRecord(value)) return 'not an object';
  const { status, headers, body, storedAt, revalidateMs, path, tags, vary, marker, route } = value;
  if (!Number.isInteger(status) || (status as number) < 200 || (status as number) > 299) return 'a status outside 2xx';
  if (!isHeaders(headers, false) || Object.keys(headers).some((name) => name.toLowerCase() === 'set-cookie'))
    return 'headers that cannot be written';
  if (typeof body !== 'string') return 'a body that is not text';
  if (!isTime(storedAt) || !isTime(revalidateMs) || revalidateMs === 0) return 'times that are not times';
  if (typeof path !== 'string' || !path.startsWith('/')) return 'a path that is not one';
  if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string')) return 'tags that are not names';
  if (!isHeaders(vary, true)) return 'read headers that are not headers';
  if (typeof marker !== 'string' || !MARKER_ID.test(marker)) return 'no markers of its own';
  if (typeof route !== 'string' || route === '') return 'no route';
  return undefined;
}

/** The entry in `raw`, or why it is none. */
export function readEntry(raw: string): CacheEntry | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { problem: 'not JSON' };
  }
  const problem = problemOf(value);
  return problem === undefined ? (value as CacheEntry) : { problem };
}
