// Every log line is bounded: at most 8 KB whatever was thrown or sent (a 1 MB message, a
// 10,000-frame stack, five causes each with 50 long frames, hostile characters that JSON
// escapes to six bytes each). pino hands each finished line to boundLine (logger.ts); nearly
// all are far below the bound and pass after one length check. A line above it is parsed and
// loses detail in order of least use: causes' stacks, then causes, then frames from the
// bottom, then length, until it fits. The failure line stays complete in what matters: its
// digest, request id, route, status, the error's type, message and first frames.

import { STACK_FRAME } from '../../shared/log-line.ts';

/** The bound on one line, newline included. */
export const MAX_LINE_BYTES = 8 * 1024;
/** UTF-8 spends at most 3 bytes on one UTF-16 unit: a line this short needs no measuring. */
const SURELY_SHORT = Math.floor(MAX_LINE_BYTES / 3);
/** The last resort keeps every field, cut to this many characters (64 × 6 escaped bytes each). */
const LAST_RESORT_CHARS = 64;
/** What a cut keeps of a top-level field or a message, before the last resort. */
const SHORT_CHARS = 256;
/** Deeper than serializeError ever nests causes (5): a guard against odd input only. */
const MAX_CHAIN = 16;
/** The marker capStack (serialize-error.ts) leaves for the frames it dropped. */
const MORE_FRAMES = /^\s+… (\d+) more frames$/;

type ErrorField = { message?: unknown; stack?: unknown; cause?: unknown; [key: string]: unknown };
type Fields = Record<string, unknown> & { error?: unknown };

const byteSize = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** `text` at most `max` characters, marked `…` where it was cut: every bound of a log line uses it. */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function isObject(value: unknown): value is ErrorField {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The error and its causes, outermost first, each a shallow copy that may be trimmed. */
function copyChain(error: unknown): ErrorField[] {
  const chain: ErrorField[] = [];
  for (let node = error; isObject(node) && chain.length < MAX_CHAIN; node = node.cause) chain.push({ ...node });
  for (let i = 0; i < chain.length - 1; i++) chain[i]!.cause = chain[i + 1];
  return chain;
}

/** The stack with at most `frames` frames (its first line kept), and a count of what went. */
function keepFrames(stack: string, frames: number): string {
  const lines = stack.split('\n');
  const first = lines.findIndex((line) => STACK_FRAME.test(line));
  const head = first === -1 ? lines : lines.slice(0, first);
  const rest = first === -1 ? [] : lines.slice(first);
  const all = rest.filter((line) => STACK_FRAME.test(line));
  const dropped = rest.reduce((sum, line) => sum + Number(MORE_FRAMES.exec(line)?.[1] ?? 0), 0);
  const kept = [cut(head[0] ?? '', SHORT_CHARS), ...all.slice(0, frames)];
  const more = all.length - Math.min(frames, all.length) + dropped;
  if (more > 0) kept.push(`    … ${more} more frames`);
  return kept.join('\n');
}

function cutStrings(target: Record<string, unknown>, max: number): void {
  for (const [key, value] of Object.entries(target)) if (typeof value === 'string') target[key] = cut(value, max);
}

/**
 * pino's `hooks.streamWrite`: the line as it is when it fits (nearly always), else the same
 * record trimmed until it does.
 */
export function boundLine(line: string): string {
  if (line.length <= SURELY_SHORT || Buffer.byteLength(line) <= MAX_LINE_BYTES) return line;
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    record = undefined;
  }
  // Not a JSON object: pino only writes objects, so this is a guard, not a path.
  if (!isObject(record)) return `${JSON.stringify({ msg: 'log line over the size bound, not JSON', bytes: Buffer.byteLength(line) })}\n`;
  return `${JSON.stringify(fitRecord(record, MAX_LINE_BYTES - 1))}\n`;
}

/** A trimmed copy of `fields` that serialises to at most `budget` bytes. */
export function fitRecord(fields: Fields, budget: number): Fields {
  if (byteSize(fields) <= budget) return fields;
  const out: Fields = { ...fields };
  const chain = copyChain(fields.error);
  if (chain.length > 0) out.error = chain[0];
  const fits = () => byteSize(out) <= budget;

  // Causes lose their stacks from the deepest up, then the causes themselves.
  for (let i = chain.length - 1; i > 0; i--) {
    delete chain[i]!.stack;
    if (fits()) return out;
  }
  for (let i = chain.length - 1; i > 0; i--) {
    delete chain[i - 1]!.cause;
    if (fits()) return out;
  }
  // The outer error keeps its first line and fewer and fewer frames from the top.
  const top = chain[0];
  if (top && typeof top.stack === 'string') {
    const stack = top.stack;
    for (let frames = 32; frames >= 1; frames = Math.floor(frames / 2)) {
      top.stack = keepFrames(stack, frames);
      if (fits()) return out;
    }
  }
  // Then length: the line's own fields and the message, then the stack goes entirely.
  cutStrings(out, SHORT_CHARS);
  if (top) cutStrings(top, SHORT_CHARS);
  if (fits()) return out;
  if (top) delete top.stack;
  if (fits()) return out;
  // Last resort, bounded whatever the fields: short strings, numbers and booleans only.
  for (const [key, value] of Object.entries(out)) {
    if (typeof value === 'string') out[key] = cut(value, LAST_RESORT_CHARS);
    else if (typeof value === 'object' && value !== null) delete out[key];
  }
  if (top) out.error = { type: cut(String(top.type), LAST_RESORT_CHARS), message: cut(String(top.message), LAST_RESORT_CHARS) };
  return out;
}
