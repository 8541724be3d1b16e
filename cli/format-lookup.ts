import { SIDE_LABEL, counts, iso, isoOrNull, plural, skippedJson } from './format.ts';
import { formatError } from './format-error.ts';
import type { LookupResult } from './lookup.ts';
import { safe } from './safe-text.ts';
import type { Side } from './parse.ts';
import type { DigestSummary } from './summary.ts';

// The lookup's output: text for a person, JSON for a script.

/**
 * Matches printed in full when a prefix is ambiguous, most frequent first. More than this and
 * the prefix was too short to be useful: the warning lists them all, the user types more.
 */
export const MAX_SHOWN_MATCHES = 5;
const LABEL_WIDTH = 12;
const sideLabel = (side: string) => SIDE_LABEL[side as Side] ?? side;

export function lookupText(result: LookupResult): string {
  return [...result.matches.slice(0, MAX_SHOWN_MATCHES).map(summaryText), reportedOnlyText(result)].filter(Boolean).join('\n');
}

/**
 * Digests only browser reports name: listed apart, after the matches, never as found. An
 * unverified report proves nothing; a verified one's failure line is in another log.
 */
export function reportedOnlyText(result: LookupResult): string {
  const { reportedOnly } = result;
  if (reportedOnly.length === 0) return '';
  const lines = [`Named only by browser reports, logged by no server failure in these logs (not found):`];
  for (const summary of reportedOnly.slice(0, MAX_SHOWN_MATCHES)) lines.push(`Digest ${safe(summary.digest)}`, ...reportLines(summary));
  const more = reportedOnly.length - MAX_SHOWN_MATCHES;
  if (more > 0) lines.push(`… and ${plural(more, 'more digest')}`);
  return `${lines.join('\n')}\n`;
}

/** For stderr when the prefix matched more than one digest; undefined otherwise. */
export function ambiguityWarning(result: LookupResult): string | undefined {
  const { query, matches } = result;
  if (matches.length < 2) return undefined;
  const listed = matches.map((match) => `${safe(match.digest)} (${match.count})`).join(', ');
  const shown = matches.length > MAX_SHOWN_MATCHES ? `the ${MAX_SHOWN_MATCHES} most frequent` : 'each';
  return `'${query}' matches ${matches.length} digests: ${listed}; showing ${shown}, most frequent first. Type more of the digest to pick one.`;
}

function summaryText(summary: DigestSummary): string {
  const sides = summary.count === 0 ? '' : ` (${counts(summary.sides.entries(), Infinity, sideLabel)})`;
  const prefetches =
    summary.prefetches === 0 ? '' : `, and ${summary.prefetches} ${summary.prefetches === 1 ? 'prefetch' : 'prefetches'} nobody saw`;
  const lines = [`Digest ${safe(summary.digest)} — ${plural(summary.count, 'occurrence')}${sides}${prefetches}`];
  const field = (label: string, value: string) => value !== '' && lines.push(`  ${label.padEnd(LABEL_WIDTH)}${value}`);
  field('first seen', iso(summary.firstSeen));
  field('last seen', iso(summary.lastSeen));
  field('releases', counts(summary.releases.entries()));
  field('first in', summary.firstRelease === undefined ? '' : safe(summary.firstRelease));
  field('replicas', counts(summary.replicas.entries()));
  field('statuses', counts(summary.statuses.entries()));
  field('routes', counts(summary.routes.entries()));
  field('paths', counts(summary.paths.entries()));
  field('kinds', counts(summary.kinds.entries()));
  lines.push(...requestLines(summary), ...reportLines(summary));
  if (summary.secondaryFailures > 0)
    lines.push(
      `  ${'error page'.padEnd(LABEL_WIDTH)}failed too ×${summary.secondaryFailures} (the static page was sent; see the lines with secondaryFailure)`,
    );
  lines.push(...exampleLines(summary));
  return `${lines.join('\n')}\n`;
}

/**
 * Browser reports that name this digest, apart from the occurrences: verified ones are the
 * browser's side of a failure the server logged (a recovered boundary); unverified ones carry
 * no valid proof that this server wrote the digest into that page, and prove nothing.
 */
function reportLines(summary: DigestSummary): string[] {
  const { verifiedReports, unverifiedReports, reports } = summary;
  if (verifiedReports + unverifiedReports === 0) return [];
  const tally = [verifiedReports > 0 && `${verifiedReports} verified`, unverifiedReports > 0 && `${unverifiedReports} unverified`]
    .filter(Boolean)
    .join(', ');
  const lines = [
    `  ${'browser'.padEnd(LABEL_WIDTH)}${plural(verifiedReports + unverifiedReports, 'report')} (${tally}), not counted as occurrences`,
  ];
  for (const report of reports) {
    const cells = [
      report.reqId ?? '(no page id)',
      iso(report.time),
      report.kind ?? '',
      report.path ?? '',
      report.verified ? 'verified' : 'UNVERIFIED',
    ];
    lines.push(`  ${''.padEnd(LABEL_WIDTH)}${cells.filter(Boolean).map(safe).join('  ')}`);
  }
  return lines;
}

function requestLines(summary: DigestSummary): string[] {
  const lines = summary.requests.map(({ reqId, time, side, replica }, index) => {
    const label = (index === 0 ? 'requests' : '').padEnd(LABEL_WIDTH);
    const where = replica === undefined ? '' : `  ${safe(replica)}`;
    return `  ${label}${safe(reqId)}  ${iso(time)}${where}${side === 'server' ? '' : `  ${sideLabel(side)}`}`;
  });
  const more = summary.requestCount - summary.requests.length;
  if (more > 0) lines.push(`  ${''.padEnd(LABEL_WIDTH)}… and ${more} more`);
  return lines;
}

function exampleLines(summary: DigestSummary): string[] {
  const { example } = summary;
  if (example === undefined) return [];
  const where = [sideLabel(example.side), iso(example.time), example.reqId && `request ${safe(example.reqId)}`].filter(Boolean).join(', ');
  return ['', `  error (latest; ${where}):`, ...formatError(example.error).map((line) => `    ${line}`)];
}

/**
 * `--json`: a contract for scripts. Fields may be added, never renamed or removed.
 *
 *   { "query": string, "skippedLines": number,
 *     "skipped": { "notJson": number, "tooLong": number },   skippedLines by cause
 *     "matches": [{                               most frequent first; [] when none
 *       "digest": string, "count": number,
 *       "firstSeen": string | null, "lastSeen": string | null,       ISO 8601
 *       "sides", "statuses", "routes", "paths", "releases", "kinds", "replicas": Count[],
 *       "firstRelease": string | null,             the release of the first occurrence
 *       "browserReports": { "verified": number, "unverified": number,  reports naming it, not counted
 *                           "latest": [{ "reqId", "time", "kind", "path", "verified" }] },  ≤ 10
 *       "secondaryFailures": number,                the error page failed too
 *       "requests": [{ "reqId": string, "time": string | null, "side": Side, "replica"?: string }],  latest first, ≤ 10
 *       "moreRequests": number,
 *       "example": { "side": Side, "time": string | null, "reqId": string | null,
 *                    "error": { "type", "message", "stack"?, "code"?, "cause"?: error } } }],
 *     "reportedOnly": [{                          digests only browser reports name: not found
 *       "digest": string, "browserReports": { as above } }] }
 *
 *   Count = { "value": string, "count": number }, most frequent first.
 *   Side = "server" | "client" | "process".
 *   Printed with exit 1 when "matches" is [], whatever "reportedOnly" holds.
 */
export function lookupJson(result: LookupResult): object {
  return {
    query: result.query,
    ...skippedJson(result.skipped),
    matches: result.matches.map(summaryJson),
    reportedOnly: result.reportedOnly.map((summary) => ({ digest: summary.digest, browserReports: browserReportsJson(summary) })),
  };
}

function browserReportsJson(summary: DigestSummary): object {
  return {
    verified: summary.verifiedReports,
    unverified: summary.unverifiedReports,
    latest: summary.reports.map((report) => ({ ...report, time: isoOrNull(report.time) })),
  };
}

function summaryJson(summary: DigestSummary): object {
  const { example } = summary;
  return {
    digest: summary.digest,
    count: summary.count,
    prefetches: summary.prefetches,
    firstSeen: isoOrNull(summary.firstSeen),
    lastSeen: isoOrNull(summary.lastSeen),
    sides: summary.sides.entries(),
    statuses: summary.statuses.entries(),
    routes: summary.routes.entries(),
    paths: summary.paths.entries(),
    releases: summary.releases.entries(),
    kinds: summary.kinds.entries(),
    replicas: summary.replicas.entries(),
    firstRelease: summary.firstRelease ?? null,
    browserReports: browserReportsJson(summary),
    secondaryFailures: summary.secondaryFailures,
    requests: summary.requests.map((request) => ({ ...request, time: isoOrNull(request.time) })),
    moreRequests: summary.requestCount - summary.requests.length,
    example:
      example === undefined
        ? null
        : { side: example.side, time: isoOrNull(example.time), reqId: example.reqId ?? null, error: example.error },
  };
}
