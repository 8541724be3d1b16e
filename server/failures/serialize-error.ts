import { STACK_FRAME, type SerializedError } from '../../shared/log-line.ts';
import { cut } from '../observe/log-bound.ts';
import { causeOf, describeValue, isErrorLike, readProperty, readString, typeName } from './thrown-value.ts';

// The error as a log field: type, message, stack capped the way Sentry caps it, causes followed.
// Whatever was thrown (thrown-value.ts): a value that is not an Error is described, never
// converted with String(), which throws for null-prototype objects and Symbols in templates.

/** Sentry's limits (docs/reference-facts.md): at most 50 frames, a line cut at 1024 characters. */
export const MAX_STACK_FRAMES = 50;
export const MAX_LINE_LENGTH = 1024;
/** Cause chains are short in practice; a cap stops cycles and pathological chains. */
const MAX_CAUSE_DEPTH = 5;

export type { SerializedError };

/** True when no line is over the cut and there are too few lines to be over the frame cap. */
function withinCaps(stack: string): boolean {
  let lines = 0;
  for (let start = 0; start <= stack.length; lines++) {
    const end = stack.indexOf('\n', start);
    const stop = end === -1 ? stack.length : end;
    if (stop - start > MAX_LINE_LENGTH || lines > MAX_STACK_FRAMES) return false;
    start = stop + 1;
  }
  return true;
}

export function capStack(stack: string): string {
  // The common stack (V8 keeps 10 frames) is within the caps: kept as it is, nothing allocated.
  if (withinCaps(stack)) return stack;
  const lines = stack.split('\n');
  const frameStart = lines.findIndex((line) => STACK_FRAME.test(line));
  const head = frameStart === -1 ? lines : lines.slice(0, frameStart);
  const frames = frameStart === -1 ? [] : lines.slice(frameStart);
  const kept = frames.slice(0, MAX_STACK_FRAMES);
  if (frames.length > kept.length) kept.push(`    … ${frames.length - kept.length} more frames`);
  return [...head, ...kept].map((line) => cut(line, MAX_LINE_LENGTH)).join('\n');
}

export function serializeError(err: unknown, depth = 0, seen: Set<unknown> = new Set()): SerializedError {
  seen.add(err);
  const out: SerializedError = { type: typeName(err), message: cut(describeValue(err), MAX_LINE_LENGTH) };
  if (!isErrorLike(err)) return out;
  const stack = readString(err, 'stack');
  if (stack) out.stack = capStack(stack);
  const code = readProperty(err, 'code');
  if (typeof code === 'string') out.code = cut(code, MAX_LINE_LENGTH);
  const detail = readProperty(err, 'detail');
  if (typeof detail === 'string') out.detail = cut(detail, MAX_LINE_LENGTH);
  const cause = causeOf(err);
  if (cause !== undefined && depth < MAX_CAUSE_DEPTH) {
    out.cause = seen.has(cause)
      ? { type: typeName(cause), message: '[cycle: a cause seen earlier in this chain]' }
      : serializeError(cause, depth + 1, seen);
  }
  return out;
}
