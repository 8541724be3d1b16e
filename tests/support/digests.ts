/** The digest an HTML error page shows. */
export function pageDigest(html: string): string | undefined {
  return /<code data-digest="">([\w-]+)<\/code>/.exec(html)?.[1];
}

/**
 * The digest React wrote for a failed Suspense boundary: `data-dgst` when the failure was known
 * before the boundary was flushed, `$RX(id, digest)` when it came after.
 */
export function streamedDigest(html: string): string | undefined {
  return (/data-dgst="([\w-]+)"/.exec(html) ?? /\$RX\("B:\d+","([\w-]+)"/.exec(html))?.[1];
}
