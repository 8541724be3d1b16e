import { BASE_BUCKET_MS, Histogram } from './histogram.ts';
import type { Occurrence } from './parse.ts';
import { scan } from './scan.ts';
import { Tally, type Count } from './tally.ts';

// `digest top`: every digest counted, the most frequent shown, each with its activity over
// one shared window so bursts line up across rows.

/** Sparkline columns: narrow enough for a terminal row, an hour reads as 2.5-minute bars. */
export const SPARK_BINS = 24;
/** Routes kept per digest: a row shows three; the rest only matter as a count. */
const MAX_ROUTES = 20;
/** A window no finer than the histogram's resolution, or a single instant fills the row. */
const MIN_WINDOW_MS = SPARK_BINS * BASE_BUCKET_MS;

export interface TopOptions {
  sinceMs: number | undefined;
  limit: number;
  now: number;
}

export interface Window {
  from: number;
  to: number;
  binMs: number;
}

export interface TopRow {
  digest: string;
  count: number;
  firstSeen: number | undefined;
  lastSeen: number | undefined;
  sides: Count[];
  /** The route, or the path for client reports, or the kind for process faults. */
  routes: Count[];
  /** SPARK_BINS counts over the window; empty when no occurrence had a time. */
  histogram: number[];
}

export interface TopResult {
  rows: TopRow[];
  totalDigests: number;
  totalOccurrences: number;
  window: Window | undefined;
  skipped: number;
}

class Entry {
  count = 0;
  firstSeen: number | undefined;
  lastSeen: number | undefined;
  readonly sides = new Tally(3);
  readonly routes = new Tally(MAX_ROUTES);
  readonly histogram = new Histogram();

  constructor(readonly digest: string) {}

  add(occurrence: Occurrence): void {
    const { time } = occurrence;
    this.count++;
    this.sides.add(occurrence.side);
    this.routes.add(occurrence.route ?? occurrence.path ?? occurrence.kind);
    if (time === undefined) return;
    this.firstSeen = Math.min(this.firstSeen ?? time, time);
    this.lastSeen = Math.max(this.lastSeen ?? time, time);
    this.histogram.add(time);
  }
}

export async function top(options: TopOptions, sources: readonly string[]): Promise<TopResult> {
  const since = options.sinceMs === undefined ? undefined : options.now - options.sinceMs;
  const entries = new Map<string, Entry>();
  let totalOccurrences = 0;
  const visit = (occurrence: Occurrence) => {
    // Only occurrences are ranked: browser reports and secondary failures are shown by a lookup.
    if (occurrence.record !== 'failure') return;
    // A line without a time cannot be placed inside --since: it is left out rather than guessed.
    if (since !== undefined && (occurrence.time === undefined || occurrence.time < since)) return;
    let entry = entries.get(occurrence.digest);
    if (!entry) entries.set(occurrence.digest, (entry = new Entry(occurrence.digest)));
    entry.add(occurrence);
    totalOccurrences++;
  };
  const skipped = await scan(sources, visit, { mustContain: '"digest"' });
  const shown = [...entries.values()].sort(byFrequency).slice(0, options.limit);
  const window = windowOf(shown, since === undefined ? undefined : { from: since, to: options.now });
  const rows = shown.map((entry) => toRow(entry, window));
  return { rows, totalDigests: entries.size, totalOccurrences, window, skipped };
}

/** Most frequent first; then the most recent, which is the one more likely still happening. */
function byFrequency(a: Entry, b: Entry): number {
  return b.count - a.count || (b.lastSeen ?? -Infinity) - (a.lastSeen ?? -Infinity) || (a.digest < b.digest ? -1 : 1);
}

/** --since's window when given, else the span of the rows shown. */
function windowOf(shown: readonly Entry[], since: { from: number; to: number } | undefined): Window | undefined {
  let span = since;
  for (const { firstSeen, lastSeen } of since === undefined ? shown : []) {
    if (firstSeen === undefined || lastSeen === undefined) continue;
    span = { from: Math.min(span?.from ?? firstSeen, firstSeen), to: Math.max(span?.to ?? lastSeen, lastSeen) };
  }
  if (span === undefined) return undefined;
  const to = Math.max(span.to, span.from + MIN_WINDOW_MS);
  return { from: span.from, to, binMs: (to - span.from) / SPARK_BINS };
}

function toRow(entry: Entry, window: Window | undefined): TopRow {
  const { digest, count, firstSeen, lastSeen } = entry;
  const histogram = window === undefined || firstSeen === undefined ? [] : entry.histogram.bin(window.from, window.to, SPARK_BINS);
  return { digest, count, firstSeen, lastSeen, sides: entry.sides.entries(), routes: entry.routes.entries(), histogram };
}
