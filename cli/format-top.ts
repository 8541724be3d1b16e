import { counts, duration, isoOrNull, isoSeconds, plural, widest } from './format.ts';
import { safe } from './safe-text.ts';
import { sparkline } from './sparkline.ts';
import { SPARK_BINS, type TopResult, type TopRow } from './top.ts';

// `digest top`'s output: a table for a person, JSON for a script.

/** Routes named per row; the rest are a "+N more". */
const ROUTES_PER_ROW = 3;
const TIME_WIDTH = 'YYYY-MM-DDTHH:MM:SSZ'.length;

export function topText(result: TopResult): string {
  const { rows, window } = result;
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
  const header = columns([
    'COUNT'.padStart(countWidth),
    'DIGEST'.padEnd(digestWidth),
    'ACTIVITY'.padEnd(sparkWidth),
    'FIRST SEEN'.padEnd(TIME_WIDTH),
    'LAST SEEN'.padEnd(TIME_WIDTH),
    'ROUTES',
  ]);
  const line = (row: TopRow) =>
    columns([
      String(row.count).padStart(countWidth),
      safe(row.digest).padEnd(digestWidth),
      sparkline(row.histogram).padEnd(sparkWidth),
      isoSeconds(row.firstSeen).padEnd(TIME_WIDTH),
      isoSeconds(row.lastSeen).padEnd(TIME_WIDTH),
      counts(row.routes, ROUTES_PER_ROW),
    ]);
  const span = window === undefined ? '' : `, ${isoSeconds(window.from)} → ${isoSeconds(window.to)}, one bar = ${duration(window.binMs)}`;
  const title = `Top ${rows.length} of ${plural(result.totalDigests, 'digest')} (${plural(result.totalOccurrences, 'occurrence')})${span}`;
  return [title, header, ...rows.map(line)].join('\n') + '\n';
}

/**
 * `--json`: a contract for scripts. Fields may be added, never renamed or removed.
 *
 *   { "window": { "from": string, "to": string, "bins": number, "binMs": number } | null,
 *     "totalDigests": number, "totalOccurrences": number, "skippedLines": number,
 *     "digests": [{                                most frequent first, at most --limit
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
    skippedLines: result.skipped,
    digests: result.rows.map((row) => ({
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
