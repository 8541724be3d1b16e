import type { Occurrence } from './parse.ts';
import { scan, type Skipped } from './scan.ts';
import { DigestSummary } from './summary.ts';

// `digest <DIGEST>`: every failure line whose digest starts with what the user typed, grouped
// by full digest. A prefix can match several digests; all are kept, most frequent first.
// A digest is found only when a failure line logged it: one that browser reports merely name
// (anyone can post a report naming any digest; a verified one's failure may be in another
// replica's log) is listed apart and is not a match (exit 1 when that is all there is).

export interface LookupResult {
  query: string;
  /** Digests a failure line logged, most frequent first. */
  matches: DigestSummary[];
  /** Digests only browser reports name, most reported first: never counted as found. */
  reportedOnly: DigestSummary[];
  skipped: Skipped;
}

export async function lookup(query: string, sources: readonly string[]): Promise<LookupResult> {
  const byDigest = new Map<string, DigestSummary>();
  const visit = (occurrence: Occurrence) => {
    if (!occurrence.digest.startsWith(query)) return;
    let summary = byDigest.get(occurrence.digest);
    if (!summary) byDigest.set(occurrence.digest, (summary = new DigestSummary(occurrence.digest)));
    summary.add(occurrence);
  };
  // The digest is a JSON string value, so a matching line contains a quote then the prefix.
  const skipped = await scan(sources, visit, { mustContain: `"${query}` });
  const all = [...byDigest.values()];
  const reports = (summary: DigestSummary) => summary.verifiedReports + summary.unverifiedReports;
  const logged = (summary: DigestSummary) => summary.count > 0 || summary.secondaryFailures > 0;
  const byDigestName = (a: DigestSummary, b: DigestSummary) => (a.digest < b.digest ? -1 : 1);
  return {
    query,
    matches: all.filter(logged).sort((a, b) => b.count - a.count || byDigestName(a, b)),
    reportedOnly: all.filter((summary) => !logged(summary)).sort((a, b) => reports(b) - reports(a) || byDigestName(a, b)),
    skipped,
  };
}
