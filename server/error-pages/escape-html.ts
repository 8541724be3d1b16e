const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to place in HTML content and quoted attributes. */
const SPECIAL = /[&<>"']/;

export function escapeHtml(text: string): string {
  // The usual value (a nonce, a host name, a digest) has nothing to escape: no replace pass.
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char) : text;
}
