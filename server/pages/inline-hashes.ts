import { createHash } from 'node:crypto';

// A prerendered page is the same bytes for every request, so it cannot carry a per-request CSP
// nonce (docs/caching.md, "Prerendered pages"). Instead, at build, every inline script and style
// it has is hashed (CSP Level 3, "hash-source"), and it is served with a policy that allows
// exactly those: the nonce the security headers put in `script-src` and `style-src`
// (server/edge/security-headers.ts) is replaced by the page's hashes.

export interface InlineHashes {
  /** `'sha256-…'` sources of the page's inline scripts. */
  script: string[];
  /** The same, of its `<style>` elements. */
  style: string[];
}

/**
 * React's markup, which escapes `<` and `>` in attribute values and writes no `</script` or
 * `</style` inside an element's text (the runtime's JSON escapes `<`: shared/runtime.ts), so an
 * element ends at its first closing tag.
 */
const INLINE_ELEMENT = /<(script|style)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi;
const HAS_SRC = /\ssrc\s*=/i;

/** The browser hashes an element's text as UTF-8 (CSP3 §8.4): so is it here. */
const hashSource = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The hashes of every inline script (one with `src` runs its file, which `'self'` allows) and style of `html`. */
export function inlineHashes(html: string): InlineHashes {
  const script = new Set<string>();
  const style = new Set<string>();
  for (const [, tag = '', attributes = '', text = ''] of html.matchAll(INLINE_ELEMENT)) {
    if (tag.toLowerCase() === 'style') style.add(hashSource(text));
    else if (!HAS_SRC.test(attributes)) script.add(hashSource(text));
  }
  return { script: [...script], style: [...style] };
}

/** The page as rendered with `nonce` as its marker, without the attribute: no nonce is frozen into it. */
export function withoutNonce(html: string, nonce: string): string {
  return html.split(` nonce="${nonce}"`).join('');
}

/**
 * A policy written for `nonce` (the security headers' per request), with the nonce replaced by
 * the page's hashes in `script-src` and `style-src` and dropped from any other directive.
 */
export function hashedPolicy(policy: string, nonce: string, hashes: InlineHashes): string {
  const source = ` 'nonce-${nonce}'`;
  if (!policy.includes(source)) return policy;
  return policy
    .split(';')
    .map((directive) => {
      const name = directive.trim().split(/\s+/, 1)[0]!.toLowerCase();
      const sources = name === 'script-src' ? hashes.script : name === 'style-src' ? hashes.style : [];
      return directive.replace(source, sources.map((hash) => ` ${hash}`).join(''));
    })
    .join(';');
}
