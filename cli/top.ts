import { BASE_BUCKET_MS, Histogram } from './histogram.ts';
import type { Occurrence } from './parse.ts';
import { Releases, type NewestRelease } from './releases.ts';
import { scan, type Skipped } from './scan.ts';
import { Tally, type Count } from './tally.ts';

// `digest top`: every digest counted, the most frequent shown, each with its activity over
// one shared window so bursts line up across rows.

/** Sparkline columns: narrow enough for a terminal row, an hour reads as 2.5-minute bars. */
export const SPARK_BINS = 24;
/** Routes kept per digest: a row shows three; the rest only matter as a count. */
const MAX_ROUTES = 20;
/** A window no finer than the histogram's resolution, or a single instant fills the row. */
const MIN_WINDOW_MS = SPARK_BINS * BASE_BUCKET_MS;

/** What `--by` groups rows by. */
export type GroupBy = 'replica' | 'release';

export interface TopOptions {
  sinceMs: number | undefined;
  /** Rows shown; with `by`, rows per group. */
  limit: number;
  now: number;
  by?: GroupBy;
}

export interface Window {
  from: number;
  to: number;
  binMs: number;
}

export interface TopRow {
  /** With --by: the replica or release of these occurrences ("unknown" when a line names none). */
  group?: string;
  digest: string;
  count: number;
  firstSeen: number | undefined;
  lastSeen: number | undefined;
  sides: Count[];
  /** The route, or the path for client reports, or the kind for process faults. */
  routes: Count[];
  /** SPARK_BINS counts over the window; empty when no occurrence had a time. */
  histogram: number[];
  /** The newest release, when this digest's first occurrence in the logs read was in it, since it began (cli/releases.ts). */
  newIn?: string;
}

export interface TopResult {
  rows: TopRow[];
  totalDigests: number;
  totalOccurrences: number;
  window: Window | undefined;
  skipped: Skipped;
  by?: GroupBy;
  /** The release that started last (after a rollback, the one rolled back to), with two or more releases in the logs. */
  newestRelease?: NewestRelease;
}

/** Where a line names no replica or release. */
const UNKNOWN_GROUP = 'unknown';

class Entry {
  count = 0;
  firstSeen: number | undefined;
  lastSeen: number | undefined;
  readonly sides = new Tally(3);
  readonly routes = new Tally(MAX_ROUTES);
  readonly histogram = new Histogram();

  constructor(
    readonly digest: string,
    readonly group: string | undefined,
  ) {}

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
  const firstSeen = new Map<string, { time: number; release: string | undefined }>();
  let totalOccurrences = 0;
  const visit = (occurrence: Occurrence) => {
    // Only occurrences are ranked: browser reports and secondary failures are shown by a lookup.
    if (occurrence.record !== 'failure') return;
    noteFirst(firstSeen, occurrence);
    // A line without a time cannot be placed inside --since: it is left out rather than guessed.
    if (since !== undefined && (occurrence.time === undefined || occurrence.time < since)) return;
    const group = options.by === undefined ? undefined : (occurrence[options.by] ?? UNKNOWN_GROUP);
    const key = group === undefined ? occurrence.digest : `${group}\n${occurrence.digest}`;
    let entry = entries.get(key);
    if (!entry) entries.set(key, (entry = new Entry(occurrence.digest, group)));
    entry.add(occurrence);
    totalOccurrences++;
  };
  const releases = new Releases();
  const skipped = await scan(sources, visit, { mustContain: '"digest"', onLine: releases.see });
  const shown = limited([...entries.values()], options.limit);
  const window = windowOf(shown, since === undefined ? undefined : { from: since, to: options.now });
  const newestRelease = releases.newest();
  const newIn = (digest: string) => {
    const first = firstSeen.get(digest);
    // After a rollback, a digest of the release's earlier run is not new in it.
    const fresh = newestRelease && first?.release === newestRelease.release && first.time >= newestRelease.since;
    return fresh ? newestRelease.release : undefined;
  };
  const rows = shown.map((entry) => toRow(entry, window, newIn(entry.digest)));
  const totalDigests = new Set([...entries.values()].map((entry) => entry.digest)).size;
  return { rows, totalDigests, totalOccurrences, window, skipped, by: options.by, newestRelease };
}

/** Each digest's first occurrence in everything read, --since or not: where it was first seen. */
function noteFirst(firstSeen: Map<string, { time: number; release: string | undefined }>, occurrence: Occurrence): void {
  if (occurrence.time === undefined) return;
  const known = firstSeen.get(occurrence.digest);
  if (known === undefined || occurrence.time < known.time)
    firstSeen.set(occurrence.digest, { time: occurrence.time, release: occurrence.release });
}

/** The most frequent `limit` rows; with groups, per group, the groups with the most occurrences first. */
function limited(entries: Entry[], limit: number): Entry[] {
  const groups = new Map<string | undefined, Entry[]>();
  for (const entry of entries.sort(byFrequency)) {
    const rows = groups.get(entry.group) ?? [];
    if (rows.length < limit) rows.push(entry);
    groups.set(entry.group, rows);
  }
  const total = (rows: Entry[]) => rows.reduce((sum, entry) => sum + entry.count, 0);
  return [...groups.values()].sort((a, b) => total(b) - total(a)).flat();
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

function toRow(entry: Entry, window: Window | undefined, newIn: string | undefined): TopRow {
  const { digest, group, count, firstSeen, lastSeen } = entry;
  const histogram = window === undefined || firstSeen === undefined ? [] : entry.histogram.bin(window.from, window.to, SPARK_BINS);
  const row: TopRow = { digest, count, firstSeen, lastSeen, sides: entry.sides.entries(), routes: entry.routes.entries(), histogram };
  if (group !== undefined) row.group = group;
  if (newIn !== undefined) row.newIn = newIn;
  return row;
}
