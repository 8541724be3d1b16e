import { occurrenceOf, parseJson, type Occurrence } from './parse.ts';
import { readLines, STDIN } from './read-lines.ts';

// Every source, line by line, in order: failure lines go to `visit`, the rest is counted or
// passed over. Nothing but the caller's aggregates is kept.

export class InputError extends Error {}

export interface ScanOptions {
  /**
   * A line that does not contain this text cannot be a match, so it is not parsed: JSON.parse
   * is most of the cost on a large log, a substring test a small part of it.
   */
  mustContain: string;
}

/** Resolves with how many non-empty lines were not JSON objects. */
export async function scan(sources: readonly string[], visit: (occurrence: Occurrence) => void, options: ScanOptions): Promise<number> {
  let skipped = 0;
  for (const source of sources) {
    for await (const line of linesOf(source)) {
      const text = line.trim();
      if (text === '') continue;
      if (!looksLikeObject(text)) {
        skipped++;
        continue;
      }
      if (!text.includes(options.mustContain)) continue;
      const record = parseJson(text);
      if (record === undefined) skipped++;
      const occurrence = record && occurrenceOf(record);
      if (occurrence) visit(occurrence);
    }
  }
  return skipped;
}

/** Read errors (a missing file, a corrupt gzip) become one line naming the source. */
async function* linesOf(source: string): AsyncGenerator<string> {
  try {
    yield* readLines(source);
  } catch (error) {
    throw new InputError(`cannot read ${source === STDIN ? 'stdin' : source}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * The cheap test for lines that are never parsed: a line cut short by a crash or a rotation
 * does not end in '}', so it is still counted as skipped. Parsed lines are checked in full.
 */
function looksLikeObject(text: string): boolean {
  return text.startsWith('{') && text.endsWith('}');
}
