// Content-coding negotiation (RFC 9110 §12.5.3) for the built assets, which exist as files in
// each coding (the `precompressAssets` plugin in vite.config.ts). Documents are negotiated by `compression` itself.

/** The codings the build writes, in the server's order of preference, with each file's suffix. */
export const CODING_SUFFIXES = { br: '.br', gzip: '.gz' } as const;
export type Coding = keyof typeof CODING_SUFFIXES;
const PREFERENCE = Object.keys(CODING_SUFFIXES) as Coding[];

/**
 * Identity, when the header does not name it, is acceptable (RFC 9110 §12.5.3) but last: the
 * lowest weight there is, so `gzip;q=0.5` still gets gzip, as `compression` (negotiator) does for documents.
 */
const IDENTITY_FALLBACK = 0.001;

/** `name;q=0.5` → weights by lower-case name; `q` absent means 1 (RFC 9110 §12.4.2). */
function weights(header: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const item of header.split(',')) {
    const [name = '', ...params] = item.split(';').map((part) => part.trim().toLowerCase());
    if (name === '') continue;
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    // A malformed weight makes the item unusable, not the whole header.
    if (Number.isFinite(weight) && weight >= 0 && weight <= 1) found.set(name, weight);
  }
  return found;
}

/**
 * The coding to send, of those `available`: the highest weight wins, ties go to the server's
 * preference (brotli is smaller). No header: identity, which every client understands (RFC
 * 9110 allows any). `*` weighs every coding the header does not name; `identity` is acceptable
 * unless excluded by `identity;q=0` or by `*;q=0` without naming it, and chosen last. When nothing is acceptable the header is
 * disregarded and the plain file sent (RFC 9110 §12.5.3 allows either that or 406).
 */
export function negotiateCoding(header: string | undefined, available: ReadonlySet<Coding>): Coding | undefined {
  if (header === undefined) return undefined;
  const weighed = weights(header);
  const star = weighed.get('*');
  const weightOf = (name: string) => weighed.get(name) ?? star ?? (name === 'identity' ? IDENTITY_FALLBACK : 0);
  let best: Coding | undefined;
  let bestWeight = weightOf('identity');
  for (const coding of PREFERENCE) {
    if (!available.has(coding)) continue;
    const weight = weightOf(coding);
    if (weight > 0 && (weight > bestWeight || (weight === bestWeight && best === undefined))) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}
