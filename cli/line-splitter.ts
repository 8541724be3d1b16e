// Bytes → lines, at LF, CR or CRLF as node:readline splits them, with a bound on one line: past
// MAX_LINE_BYTES a line's bytes are dropped as they arrive, and the line is given as TOO_LONG for
// the caller to count and go past. readline held any line whole, so a 600 MB one hit V8's
// longest string and ended the run before the other files were read.

/**
 * The longest line read, and so about the most memory one line costs (its bytes, then its text,
 * then its parse): the tool also runs inside the server's container, under its memory limit.
 * The server's lines are at most 8 KB (server/observe/log-bound.ts); a Loki answer of 5,000 of
 * them (query_range's largest `limit` by default) is a few MB, as its lines average under 1 KB.
 * 32 times below V8's longest string (2^29 - 24 characters), which a 600 MB line hit.
 */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** In place of a line longer than MAX_LINE_BYTES, none of which was kept. */
export const TOO_LONG = Symbol('a line longer than MAX_LINE_BYTES');
export type Line = string | typeof TOO_LONG;

const LF = 0x0a;
const CR = 0x0d;
const NOTHING = Buffer.alloc(0);

export class LineSplitter {
  /** The current line's bytes so far: pieces of the chunks it spans. */
  private parts: Buffer[] = [];
  private held = 0;
  /** The current line went past the bound: its bytes are dropped until it ends. */
  private tooLong = false;
  /** The last chunk ended with a CR: an LF at the start of the next one is the same break. */
  private afterCR = false;

  /** The lines this chunk ends; its unfinished tail is held for the next. */
  push(chunk: Buffer): Line[] {
    const lines: Line[] = [];
    let start = this.afterCR && chunk[0] === LF ? 1 : 0;
    this.afterCR = false;
    // Each byte is searched for once: both positions are kept until a line passes them.
    let lf = chunk.indexOf(LF, start);
    let cr = chunk.indexOf(CR, start);
    while (lf !== -1 || cr !== -1) {
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      lines.push(this.finish(chunk.subarray(start, end)));
      start = end + 1;
      if (end === cr && chunk[start] === LF) start++;
      else if (end === cr && start === chunk.length) this.afterCR = true;
      if (lf !== -1 && lf < start) lf = chunk.indexOf(LF, start);
      if (cr !== -1 && cr < start) cr = chunk.indexOf(CR, start);
    }
    this.hold(chunk.subarray(start));
    return lines;
  }

  /** The last line, when the input did not end with a line break. */
  end(): Line[] {
    return this.held > 0 || this.tooLong ? [this.finish(NOTHING)] : [];
  }

  private hold(part: Buffer): void {
    if (this.tooLong || part.length === 0) return;
    if (this.held + part.length > MAX_LINE_BYTES) {
      this.tooLong = true;
      this.parts = [];
      this.held = 0;
      return;
    }
    this.parts.push(part);
    this.held += part.length;
  }

  /** UTF-8 is decoded per line: a line break is never inside a character's bytes. */
  private finish(last: Buffer): Line {
    this.hold(last);
    const line = this.tooLong
      ? TOO_LONG
      : this.parts.length === 1
        ? this.parts[0]!.toString()
        : Buffer.concat(this.parts, this.held).toString();
    this.parts = [];
    this.held = 0;
    this.tooLong = false;
    return line;
  }
}
