// Everything the tool prints comes from logs, and log fields come from requests: a message, a
// path or a stack may carry terminal controls (ESC sequences that clear the screen, retitle the
// window or move the cursor; raw newlines that forge table rows; bidi overrides that reorder
// what is shown). Each is shown as an escape instead, so one record is one line as written.

/** C0 controls, DEL, C1 controls, line/paragraph separators and bidi marks, embeddings, isolates. */
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's job
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escape(char: string): string {
  const code = char.charCodeAt(0);
  return NAMED[char] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`);
}

/** Text safe to print on a terminal, on one line. */
export function safe(text: string): string {
  return text.replace(UNSAFE, escape);
}

/** What JSON.stringify leaves raw inside strings: DEL, C1, separators, bidi controls. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `--json` output: JSON already escapes C0 in strings; this escapes the rest as JSON would. */
export function safeJson(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
