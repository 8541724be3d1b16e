const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const SPECIAL = /[&<>"']/;
const EVERY_SPECIAL = new RegExp(SPECIAL.source, 'g');

/** Text made safe to place in HTML content and quoted attributes. */
export function escapeHtml(text: string): string {
  // The usual value (a nonce, a host name, a digest) has nothing to escape: no replace pass.
  return SPECIAL.test(text) ? text.replace(EVERY_SPECIAL, (char) => ESCAPES[char] ?? char) : text;
}
