import { TOO_LONG, type Line } from './line-splitter.ts';
import { occurrenceOf, parseJson, type Occurrence } from './parse.ts';
import { readLines, STDIN } from './read-lines.ts';
import { SeenLines } from './seen-lines.ts';
import { unwrap } from './source-formats.ts';

// Every source, line by line, in order: failure lines go to `visit`, once each however many
// sources hold them (cli/seen-lines.ts), the rest is counted or passed over. Nothing but the
// caller's aggregates, and a key per record line, is kept.

export class InputError extends Error {}

export interface ScanOptions {
  /**
   * A line that does not contain this text cannot be a match, so it is not parsed: JSON.parse
   * is most of the cost on a large log, a substring test a small part of it.
   */
  mustContain: string;
  /** Every log line read, before the test above: what `top` learns of releases (cli/releases.ts). */
  onLine?: (text: string) => void;
}

/** Lines passed over, by why: each has its own likely cause (cli/format.ts, skippedNotes). */
export interface Skipped {
  /** Not JSON, nor any wrapper cli/source-formats.ts takes off. */
  notJson: number;
  /** Longer than MAX_LINE_BYTES (cli/line-splitter.ts): dropped unread. */
  tooLong: number;
}

export const totalSkipped = (skipped: Skipped) => skipped.notJson + skipped.tooLong;

/** Resolves with the non-empty lines that could not be read. */
export async function scan(sources: readonly string[], visit: (occurrence: Occurrence) => void, options: ScanOptions): Promise<Skipped> {
  const reading: Reading = { visit, options, skipped: { notJson: 0, tooLong: 0 }, seen: new SeenLines() };
  for (const source of sources) {
    for await (const lines of linesOf(source)) {
      for (const line of lines) {
        if (line === TOO_LONG) reading.skipped.tooLong++;
        else read(line, reading);
      }
    }
  }
  return reading.skipped;
}

interface Reading {
  visit: (occurrence: Occurrence) => void;
  options: ScanOptions;
  skipped: Skipped;
  seen: SeenLines;
}

function read(line: string, { visit, options, skipped, seen }: Reading): void {
  const text = line.trim();
  if (text === '') return;
  // Bare lines, and lines behind kubectl's, compose's and podman's prefixes or in Loki's JSON (source-formats.ts).
  const wrapped = unwrap(text);
  if (wrapped === undefined) skipped.notJson++;
  for (const { text: logLine, replica } of wrapped ?? []) {
    options.onLine?.(logLine);
    if (!logLine.includes(options.mustContain)) continue;
    const record = parseJson(logLine);
    if (record === undefined) skipped.notJson++;
    const occurrence = record && occurrenceOf(record);
    if (!occurrence || !seen.first(logLine)) continue;
    // The line's own name for its replica first: the same whichever tool gathered it.
    occurrence.replica = typeof record.replica === 'string' ? record.replica : replica;
    visit(occurrence);
  }
}

/** Read errors (a missing file, a corrupt gzip) become one line naming the source. */
async function* linesOf(source: string): AsyncGenerator<Line[]> {
  try {
    yield* readLines(source);
  } catch (error) {
    throw new InputError(`cannot read ${source === STDIN ? 'stdin' : source}: ${(error as Error).message}`, { cause: error });
  }
}
