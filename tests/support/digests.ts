import { parseServerDigest } from '../../shared/digest-proof.ts';

/** The digest an HTML error page shows. */
export function pageDigest(html: string): string | undefined {
  return /<code data-digest="">([\w-]+)<\/code>/.exec(html)?.[1];
}

/**
 * What React wrote for a failed Suspense boundary (`data-dgst` when the failure was known before
 * the boundary was flushed, `$RX(id, value)` when it came after): the server's `<digest>.<proof>`.
 */
export function streamedValue(html: string): string | undefined {
  return (/data-dgst="([\w.-]+)"/.exec(html) ?? /\$RX\("B:\d+","([\w.-]+)"/.exec(html))?.[1];
}

/** The digest part of what React wrote for a failed boundary: what the user sees. */
export function streamedDigest(html: string): string | undefined {
  return parseServerDigest(streamedValue(html))?.digest;
}
