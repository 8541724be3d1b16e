import { parseServerDigest } from '../../shared/digest-proof.ts';

// Where a response shows a failure's digest: the HTML error page's <code>, a streamed Suspense
// boundary's value (`data-dgst` when the failure was known before the boundary was flushed,
// `$RX(id, value)` when it came after), or the JSON error body. A boundary's value is the
// server's `<digest>.<proof>` (shared/digest-proof.ts); the digest part is what users see.

const ERROR_PAGE = /<code data-digest="[^"]*">([^<]+)<\/code>/;
const BOUNDARY_ATTRIBUTE = /data-dgst="([^"]+)"/;
const BOUNDARY_SCRIPT = /\$RX\("[^"]*","([^"]+)"/;

/** The digest an HTML error page shows. */
export function pageDigest(html: string): string | undefined {
  return ERROR_PAGE.exec(html)?.[1];
}

/** What React wrote for the first failed boundary: the server's `<digest>.<proof>`. */
export function streamedValue(html: string): string | undefined {
  return (BOUNDARY_ATTRIBUTE.exec(html) ?? BOUNDARY_SCRIPT.exec(html))?.[1];
}

/** The digest part of what React wrote for the first failed boundary: what the user sees. */
export function streamedDigest(html: string): string | undefined {
  return parseServerDigest(streamedValue(html))?.digest;
}

/** The digest of a JSON error body (`{ error: { digest } }`), if it has one. */
export function jsonDigest(body: unknown): string | undefined {
  const digest = (body as { error?: { digest?: unknown } } | undefined)?.error?.digest;
  return typeof digest === 'string' ? digest : undefined;
}

/** Every digest a response shows, whatever its type. */
export function digestsIn(body: string, contentType: string | undefined): string[] {
  if (contentType?.startsWith('application/json')) {
    try {
      const digest = jsonDigest(JSON.parse(body));
      return digest === undefined ? [] : [digest];
    } catch {
      return []; // not JSON after all: nothing to find
    }
  }
  const found = new Set<string>();
  for (const pattern of [ERROR_PAGE, BOUNDARY_SCRIPT, BOUNDARY_ATTRIBUTE]) {
    for (const [, value] of body.matchAll(new RegExp(pattern, 'g'))) found.add(parseServerDigest(value)?.digest ?? value!);
  }
  return [...found];
}
