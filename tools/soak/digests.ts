import { parseServerDigest } from '../../shared/digest-proof.ts';

// Where a response shows a failure's digest: the HTML error page, React's streamed error
// instruction, a client-rendered boundary's data attribute, or the JSON error body.

const PATTERNS = [
  /<code data-digest="[^"]*">([^<]+)<\/code>/g,
  /\$RX\("[^"]*","([^"]+)"/g,
  /data-dgst="([^"]+)"/g,
];

export function digestsIn(body: string, contentType: string | undefined): string[] {
  const found = new Set<string>();
  if (contentType?.startsWith('application/json')) {
    try {
      const digest = (JSON.parse(body) as { error?: { digest?: unknown } }).error?.digest;
      if (typeof digest === 'string') found.add(digest);
    } catch {
      // Not JSON after all: nothing to find.
    }
  } else {
    // A boundary's value is `<digest>.<proof>` (shared/digest-proof.ts): the digest is what is logged.
    for (const pattern of PATTERNS) for (const [, value] of body.matchAll(pattern)) found.add(parseServerDigest(value)?.digest ?? value!);
  }
  return [...found];
}
