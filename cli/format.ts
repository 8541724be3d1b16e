import { MAX_LINE_BYTES } from './line-splitter.ts';
import type { Side } from './parse.ts';
import { totalSkipped, type Skipped } from './scan.ts';
import { safe } from './safe-text.ts';
import type { Count } from './tally.ts';

// Small text helpers shared by the lookup and top output.

export const SIDE_LABEL: Record<Side, string> = { server: 'server-side', client: 'client-side', process: 'process fault' };

export function iso(time: number | undefined): string {
  return time === undefined ? 'unknown' : new Date(time).toISOString();
}

/** ISO 8601 to the second: narrower for table columns. */
export function isoSeconds(time: number | undefined): string {
  return iso(time).replace(/\.\d{3}Z$/, 'Z');
}

export function isoOrNull(time: number | undefined): string | null {
  return time === undefined ? null : new Date(time).toISOString();
}

const MIB = 1024 * 1024;

/**
 * Why lines were skipped, for stderr, one note per cause. Not JSON: most often the server's pretty
 * dev output (pino-pretty, development's default LOG_FORMAT), which this tool cannot read; a line
 * cut short by a crash or a rotation is the other cause. Too long: no log line is; a binary file,
 * or a Loki answer asked for too many lines at once.
 */
export function skippedNotes(skipped: Skipped): string[] {
  const notes: string[] = [];
  if (skipped.notJson > 0)
    notes.push(
      `skipped ${plural(skipped.notJson, 'non-JSON line')}: pretty-printed dev logs? run the server with LOG_FORMAT=json (a line cut short by a crash or a log rotation is not JSON either)`,
    );
  if (skipped.tooLong > 0)
    notes.push(
      `skipped ${plural(skipped.tooLong, 'line')} longer than ${MAX_LINE_BYTES / MIB} MiB, unread: not a log line (a binary file? a Loki answer of too many lines: ask for fewer with limit=)`,
    );
  return notes;
}

/** `--json`'s skipped lines: the total, as before causes were told apart, and by cause. */
export function skippedJson(skipped: Skipped): { skippedLines: number; skipped: Skipped } {
  return { skippedLines: totalSkipped(skipped), skipped };
}

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** "500 ×3, 502 ×1, +2 more" */
export function counts(entries: readonly Count[], max = Infinity, label = (value: string) => value): string {
  const shown = entries.slice(0, max).map(({ value, count }) => `${safe(label(value))} ×${count}`);
  if (entries.length > shown.length) shown.push(`+${entries.length - shown.length} more`);
  return shown.join(', ');
}

const UNITS: [string, number][] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
];

/** 150000 → "2m30s", 1250 → "1.3s": the two largest units, like --since takes them. */
export function duration(ms: number): string {
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(1))}s`;
  const parts: string[] = [];
  let rest = Math.round(ms / 1000) * 1000;
  for (const [unit, size] of UNITS) {
    const amount = Math.floor(rest / size);
    rest -= amount * size;
    if (amount > 0 && parts.length < 2) parts.push(`${amount}${unit}`);
  }
  return parts.join('');
}

/** The widest of the texts, at least `min`: a column's width. */
export function widest(texts: readonly string[], min: number): number {
  return texts.reduce((width, text) => Math.max(width, text.length), min);
}
