import { ContainerLogs } from './container-logs.ts';
import { JsonDocuments } from './json-documents.ts';
import { TOO_LONG, type Line } from './line-splitter.ts';
import { occurrenceOf, parseJson, type Occurrence } from './parse.ts';
import { readLines, STDIN } from './read-lines.ts';
import { SeenLines } from './seen-lines.ts';
import { unwrap, unwrapDocument, type Wrapped } from './source-formats.ts';

// Every source, line by line, in order: a container runtime's parts joined into the line they
// were (cli/container-logs.ts), a JSON document printed over many lines gathered into one
// (cli/json-documents.ts). Failure lines go to `visit`, once each however many sources hold
// them (cli/seen-lines.ts); the rest is counted or passed over. Nothing but the caller's
// aggregates, and a key per record line, is kept.

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
  for (const source of sources) await readSource(source, reading);
  return reading.skipped;
}

interface Reading {
  visit: (occurrence: Occurrence) => void;
  options: ScanOptions;
  skipped: Skipped;
  seen: SeenLines;
}

async function readSource(source: string, reading: Reading): Promise<void> {
  const { skipped } = reading;
  const documents = new JsonDocuments();
  const containers = new ContainerLogs();
  for await (const lines of linesOf(source)) {
    for (const line of lines) {
      const { pass, notJson, document } = documents.take(line);
      skipped.notJson += notJson;
      if (document !== undefined) readDocument(document, reading);
      if (!pass) continue;
      const joined = line === TOO_LONG ? undefined : containers.take(line);
      for (const whole of joined ?? [line]) {
        if (whole === TOO_LONG) skipped.tooLong++;
        else read(whole, reading);
      }
    }
  }
  skipped.notJson += documents.unfinished() + containers.unfinished();
}

function readDocument(document: { text: string; lines: number } | typeof TOO_LONG, reading: Reading): void {
  if (document === TOO_LONG) {
    reading.skipped.tooLong++;
    return;
  }
  const logLines = unwrapDocument(document.text);
  if (logLines === undefined) reading.skipped.notJson += document.lines;
  for (const logLine of logLines ?? []) readLogLine(logLine, reading);
}

function read(line: string, reading: Reading): void {
  const text = line.trim();
  if (text === '') return;
  // Bare lines, and lines behind kubectl's, compose's and podman's prefixes or in Loki's JSON (source-formats.ts).
  const wrapped = unwrap(text);
  if (wrapped === undefined) reading.skipped.notJson++;
  for (const logLine of wrapped ?? []) readLogLine(logLine, reading);
}

/** One line the server wrote, with the replica its wrapper names. */
function readLogLine({ text, replica }: Wrapped, { visit, options, skipped, seen }: Reading): void {
  options.onLine?.(text);
  if (!text.includes(options.mustContain)) return;
  const record = parseJson(text);
  if (record === undefined) skipped.notJson++;
  const occurrence = record && occurrenceOf(record);
  if (!occurrence || !seen.first(text)) return;
  // The line's own name for its replica first: the same whichever tool gathered it.
  occurrence.replica = typeof record.replica === 'string' ? record.replica : replica;
  visit(occurrence);
}

/** Read errors (a missing file, a corrupt gzip) become one line naming the source. */
async function* linesOf(source: string): AsyncGenerator<Line[]> {
  try {
    yield* readLines(source);
  } catch (error) {
    throw new InputError(`cannot read ${source === STDIN ? 'stdin' : source}: ${(error as Error).message}`, { cause: error });
  }
}
