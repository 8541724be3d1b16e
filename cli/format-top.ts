import { counts, duration, isoOrNull, isoSeconds, plural, skippedJson, widest } from './format.ts';
import { safe } from './safe-text.ts';
import { sparkline } from './sparkline.ts';
import type { NewestRelease } from './releases.ts';
import { SPARK_BINS, type TopResult, type TopRow } from './top.ts';

// `digest top`'s output: a table for a person, JSON for a script.

/** Routes named per row; the rest are a "+N more". */
const ROUTES_PER_ROW = 3;
const TIME_WIDTH = 'YYYY-MM-DDTHH:MM:SSZ'.length;

export function topText(result: TopResult): string {
  const { rows, window, by } = result;
  const groupWidth = widest(
    rows.map((row) => safe(row.group ?? '')),
    (by ?? '').length,
  );
  const countWidth = widest(
    rows.map((row) => String(row.count)),
    'COUNT'.length,
  );
  const digestWidth = widest(
    rows.map((row) => safe(row.digest)),
    'DIGEST'.length,
  );
  const sparkWidth = Math.max(SPARK_BINS, 'ACTIVITY'.length);
  const columns = (cells: string[]) => cells.join('  ').trimEnd();
  const group = (cell: string) => (by === undefined ? [] : [cell.padEnd(groupWidth)]);
  const header = columns([
    ...group(by?.toUpperCase() ?? ''),
    'COUNT'.padStart(countWidth),
    'DIGEST'.padEnd(digestWidth),
    'ACTIVITY'.padEnd(sparkWidth),
    'FIRST SEEN'.padEnd(TIME_WIDTH),
    'LAST SEEN'.padEnd(TIME_WIDTH),
    'ROUTES',
  ]);
  const line = (row: TopRow) =>
    columns([
      ...group(safe(row.group ?? '')),
      String(row.count).padStart(countWidth),
      safe(row.digest).padEnd(digestWidth),
      sparkline(row.histogram).padEnd(sparkWidth),
      isoSeconds(row.firstSeen).padEnd(TIME_WIDTH),
      isoSeconds(row.lastSeen).padEnd(TIME_WIDTH),
      counts(row.routes, ROUTES_PER_ROW) + (row.newIn === undefined ? '' : `  new in ${safe(row.newIn)}`),
    ]);
  const span = window === undefined ? '' : `, ${isoSeconds(window.from)} → ${isoSeconds(window.to)}, one bar = ${duration(window.binMs)}`;
  const title = `Top ${rows.length}${by === undefined ? '' : ` by ${by}`} of ${plural(result.totalDigests, 'digest')} (${plural(result.totalOccurrences, 'occurrence')})${span}`;
  const { newestRelease } = result;
  const newest = newestRelease === undefined ? [] : [newestText(newestRelease)];
  return [title, ...newest, header, ...rows.map(line)].join('\n') + '\n';
}

/** After a rollback the release is not new: it says since when it runs again, and after which. */
function newestText({ release, firstLine, since, previous }: NewestRelease): string {
  return since === firstLine
    ? `Newest release ${safe(release)}, first line ${isoSeconds(firstLine)}`
    : `Newest release ${safe(release)} again since ${isoSeconds(since)}, after ${safe(previous)}`;
}

/**
 * `--json`: a contract for scripts. Fields may be added, never renamed or removed.
 *
 *   { "window": { "from": string, "to": string, "bins": number, "binMs": number } | null,
 *     "totalDigests": number, "totalOccurrences": number, "skippedLines": number,
 *     "skipped": { "notJson": number, "tooLong": number },   skippedLines by cause
 *     "by": "replica" | "release" | null,
 *     "newestRelease": { "release": string, "firstLine": string,            with 2+ releases read
 *                        "since": string, "previous": string } | null,   since: its first line, or its
 *                                                                        start again after a rollback
 *     "digests": [{                                most frequent first, at most --limit (per group)
 *       "group": string | null,                    with --by: the replica or release ("unknown")
 *       "newIn": string | null,                    the newest release, if first seen in it
 *       "digest": string, "count": number,
 *       "firstSeen": string | null, "lastSeen": string | null,        ISO 8601
 *       "sides": Count[], "routes": Count[],        routes: route, else path, else fault kind
 *       "histogram": number[],                     counts per bin of the window ([] if no times)
 *       "sparkline": string }] }
 *
 *   Count = { "value": string, "count": number }, most frequent first.
 *   Printed with exit 1 when "digests" is [].
 */
export function topJson(result: TopResult): object {
  const { window } = result;
  return {
    window: window === undefined ? null : { from: isoOrNull(window.from), to: isoOrNull(window.to), bins: SPARK_BINS, binMs: window.binMs },
    totalDigests: result.totalDigests,
    totalOccurrences: result.totalOccurrences,
    ...skippedJson(result.skipped),
    by: result.by ?? null,
    newestRelease: result.newestRelease
      ? {
          release: result.newestRelease.release,
          firstLine: isoOrNull(result.newestRelease.firstLine),
          since: isoOrNull(result.newestRelease.since),
          previous: result.newestRelease.previous,
        }
      : null,
    digests: result.rows.map((row) => ({
      group: row.group ?? null,
      newIn: row.newIn ?? null,
      digest: row.digest,
      count: row.count,
      firstSeen: isoOrNull(row.firstSeen),
      lastSeen: isoOrNull(row.lastSeen),
      sides: row.sides,
      routes: row.routes,
      histogram: row.histogram,
      sparkline: sparkline(row.histogram),
    })),
  };
}
