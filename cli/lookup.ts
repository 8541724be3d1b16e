import type { Occurrence } from './parse.ts';
import { scan } from './scan.ts';
import { DigestSummary } from './summary.ts';

// `digest <DIGEST>`: every failure line whose digest starts with what the user typed, grouped
// by full digest. A prefix can match several digests; all are kept, most frequent first.

export interface LookupResult {
  query: string;
  matches: DigestSummary[];
  skipped: number;
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
  const matches = [...byDigest.values()].sort((a, b) => b.count - a.count || (a.digest < b.digest ? -1 : 1));
  return { query, matches, skipped };
}
