import { STACK_FRAME, type SerializedError } from '../shared/log-line.ts';
import { safe } from './safe-text.ts';

// One logged error, read as a person reads a stack trace: a header per error in the cause
// chain, then its frames. Each printed line is one line of the log's text, neutralised: a
// message's own newlines are shown as \n, so it cannot forge frames or "Caused by" lines.

const FRAME_INDENT = '    ';

export function formatError(error: SerializedError): string[] {
  const lines: string[] = [];
  for (let current: SerializedError | undefined = error; current; current = current.cause) {
    const header = `${current.type}${current.code === undefined ? '' : ` [${current.code}]`}: ${current.message}`;
    lines.push(`${current === error ? '' : 'Caused by: '}${safe(header)}`);
    for (const frame of framesOf(current)) lines.push(FRAME_INDENT + safe(frame));
  }
  return lines;
}

/**
 * A V8 stack repeats the type and message before its first `at` line; the header already says
 * them. Firefox and Safari stacks (client reports) have no header: every line is a frame.
 */
function framesOf(error: SerializedError): string[] {
  if (error.stack === undefined) return [];
  const lines = error.stack.split('\n');
  const first = lines.findIndex((line) => STACK_FRAME.test(line));
  const frames = first === -1 ? lines : lines.slice(first);
  return frames.map((line) => line.trim()).filter((line) => line !== '' && line !== `${error.type}: ${error.message}`);
}
