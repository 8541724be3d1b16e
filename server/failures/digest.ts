import { createHmac, randomBytes } from 'node:crypto';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APP_ROOT } from './app-root.ts';
import { causeOf, describeValue, isErrorLike, readString, typeName } from './thrown-value.ts';
import { boundedMemo } from '../../shared/bounded-memo.ts';

// error → digest (docs/errors.md, "The digest rule"). What makes two failures "the same" is their
// fingerprint: the type, the message with its per-occurrence values replaced, and the
// application's own stack frames relative to the app root; then each cause the same way. Node's
// scheduling frames (processTicksAndRejections, listOnTimeout…) depend on event-loop timing and
// absolute paths on the install: both are left out, so one failure keeps one digest under load
// and across replicas. The digest is a keyed hash of the fingerprint.

/** Causes followed: chains are short in practice; the cap and a seen-set stop cycles. */
export const MAX_CAUSE_DEPTH = 5;
/** Frames kept per error; V8 records 10 by default (Error.stackTraceLimit). */
const MAX_FRAMES = 20;
/** The message is cut before it is normalized: a long message is no more specific. */
const MAX_MESSAGE = 1024;

/** Placeholders, in the order they are applied (a timestamp holds numbers, so it goes first). */
const VOLATILE: readonly [RegExp, string][] = [
  [/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/gi, '<time>'],
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>'],
  // 8+ hex digits with at least one digit and one letter: ids, hashes, object ids, addresses.
  [/\b(?:0x)?(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, '<hex>'],
  [/\d+(?:\.\d+)?/g, '<n>'],
];

export function normalizeMessage(message: string): string {
  let text = message.length > MAX_MESSAGE ? message.slice(0, MAX_MESSAGE) : message;
  for (const [pattern, placeholder] of VOLATILE) text = text.replace(pattern, placeholder);
  return text;
}

/** `    at fn (file:line:col)` or `    at file:line:col` (V8's format). */
const FRAME = /^\s*at (?:(.+?) \()?(.+?):(\d+):\d+\)?$/;

/**
 * The application's frames of a V8 stack as `function path:line`, path relative to `root`.
 * Frames of node_modules, `node:` modules and anything outside the root are not the app's. With
 * no app frame at all (a failure inside a library), the first library frame stands in for it.
 */
export function appFrames(stack: string, root: string): string[] {
  const prefix = root.endsWith(sep) ? root : root + sep;
  const app: string[] = [];
  let firstLibrary: string | undefined;
  for (const line of stack.split('\n')) {
    const match = FRAME.exec(line);
    if (!match) continue;
    const [, fn = '', location = '', lineNo = ''] = match;
    const file = filePath(location);
    if (file === undefined || !file.startsWith(prefix)) continue;
    const relative = file.slice(prefix.length);
    const frame = `${fn.replace(/^async /, '')} ${relative}:${lineNo}`;
    if (/(^|[\\/])node_modules[\\/]/.test(relative)) {
      firstLibrary ??= frame;
      continue;
    }
    // Recursion depth can vary between occurrences: repeated frames count once.
    if (app.at(-1) !== frame) app.push(frame);
    if (app.length === MAX_FRAMES) break;
  }
  return app.length > 0 ? app : firstLibrary === undefined ? [] : [firstLibrary];
}

/** An absolute file path, or undefined for `node:`, `internal/`, `<anonymous>` and eval frames. */
function filePath(location: string): string | undefined {
  if (location.startsWith('file://')) {
    try {
      return fileURLToPath(location);
    } catch {
      return undefined;
    }
  }
  return location.startsWith('/') || /^[A-Za-z]:\\/.test(location) ? location : undefined;
}

/** The text the digest hashes. Never throws, whatever was thrown. */
export function fingerprint(value: unknown, root: string): string {
  const parts: string[] = [];
  const seen = new Set<unknown>();
  let current = value;
  for (let depth = 0; depth <= MAX_CAUSE_DEPTH; depth++) {
    if (depth > 0) parts.push('caused by');
    parts.push(...fingerprintOne(current, root));
    seen.add(current);
    const cause = causeOf(current);
    if (cause === undefined || seen.has(cause)) break;
    current = cause;
  }
  return parts.join('\n');
}

/** Distinct messages, stacks and fingerprints remembered: an error storm repeats a few of them thousands of times. */
const MEMO_SIZE = 1_000;
/**
 * A stack is remembered only up to this length: one whose message quotes a request body or an
 * upstream reply would make a thousand entries megabytes. Ten frames take 1–2 KB.
 */
export const MAX_REMEMBERED_STACK = 16 * 1024;
const normalized = boundedMemo(normalizeMessage, MEMO_SIZE);
const framesByRoot = new Map<string, (stack: string) => string[]>();
const framesOf = (stack: string, root: string) => {
  let frames = framesByRoot.get(root);
  if (frames === undefined)
    framesByRoot.set(root, (frames = boundedMemo((text: string) => appFrames(text, root), MEMO_SIZE, MAX_REMEMBERED_STACK)));
  return frames(stack);
};

function fingerprintOne(value: unknown, root: string): string[] {
  const type = typeName(value);
  // A bare number, boolean or bigint is its own content (often a status or a code): kept as is.
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return [type, String(value)];
  const message = normalized(describeValue(value));
  const stack = isErrorLike(value) ? readString(value, 'stack') : undefined;
  return [type, message, ...(stack === undefined ? [] : framesOf(stack, root))];
}

/**
 * The digest groups occurrences of one failure: a keyed hash (HMAC-SHA-256) of its fingerprint,
 * so the same failure gives the same digest on every replica sharing DIGEST_KEY, and the digest
 * reveals nothing of the message. 96 bits make collisions practically impossible (Next.js uses
 * 32); base64url keeps it URL-safe.
 */
const DIGEST_BYTES = 12;

export type Digester = (err: unknown) => string;

/** Without a configured key, one random key per process: digests then group within it only. */
const PROCESS_KEY = randomBytes(32).toString('hex');

export function digestKey(key: string | undefined): string {
  return key ?? PROCESS_KEY;
}

/** In an error storm one failure repeats thousands of times: its digest is remembered by fingerprint, not hashed again. */
export function createDigester(key: string | undefined, root: string = APP_ROOT): Digester {
  const secret = digestKey(key);
  const hash = boundedMemo(
    (print: string) => createHmac('sha256', secret).update(print).digest().subarray(0, DIGEST_BYTES).toString('base64url'),
    MEMO_SIZE,
  );
  return (err) => hash(fingerprint(err, root));
}
