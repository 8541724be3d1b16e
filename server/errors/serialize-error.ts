// The error as a log field: type, message, stack capped the way Sentry caps it, causes followed.

/** Sentry's limits (ERRORS.md): at most 50 frames, a line cut at 1024 characters. */
export const MAX_STACK_FRAMES = 50;
export const MAX_LINE_LENGTH = 1024;
/** Cause chains are short in practice; a cap stops cycles and pathological chains. */
const MAX_CAUSE_DEPTH = 5;

export interface SerializedError {
  type: string;
  message: string;
  stack?: string;
  code?: string;
  cause?: SerializedError;
}

function cut(line: string): string {
  return line.length > MAX_LINE_LENGTH ? `${line.slice(0, MAX_LINE_LENGTH)}…` : line;
}

export function capStack(stack: string): string {
  const lines = stack.split('\n');
  const frameStart = lines.findIndex((line) => /^\s+at /.test(line));
  const head = frameStart === -1 ? lines : lines.slice(0, frameStart);
  const frames = frameStart === -1 ? [] : lines.slice(frameStart);
  const kept = frames.slice(0, MAX_STACK_FRAMES);
  if (frames.length > kept.length) kept.push(`    … ${frames.length - kept.length} more frames`);
  return [...head, ...kept].map(cut).join('\n');
}

export function serializeError(err: unknown, depth = 0): SerializedError {
  if (!(err instanceof Error)) {
    return { type: typeof err, message: cut(String(err)) };
  }
  const out: SerializedError = { type: err.name || err.constructor?.name || 'Error', message: cut(err.message) };
  if (err.stack) out.stack = capStack(err.stack);
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') out.code = code;
  if (err.cause !== undefined && depth < MAX_CAUSE_DEPTH) out.cause = serializeError(err.cause, depth + 1);
  return out;
}
