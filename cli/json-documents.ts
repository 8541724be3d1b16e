import { MAX_LINE_BYTES, TOO_LONG, type Line } from './line-splitter.ts';

// A JSON document printed over many lines, as `curl … | jq` leaves a Loki answer and `jq .` the
// server's own lines: `{` alone at the start of a line, everything inside indented, `}` alone at
// the start of a line. Its lines are gathered into one text for cli/source-formats.ts to read.
// Nothing is parsed to find its end: a string in JSON holds no raw line break, so jq's layout
// says it. A line at the start of a line that is neither means what was gathered was not such a
// document (`{` printed by something else): those lines are given back as not JSON, and that
// line is read as any other. A document is bounded as a line read whole (MAX_LINE_BYTES).

export interface Taken {
  /** The line is no part of a document: read it as any line. */
  pass: boolean;
  /** Lines gathered for a document that was not one. */
  notJson: number;
  /** The document this line closed: its text and how many lines it spans, or TOO_LONG. */
  document?: { text: string; lines: number } | typeof TOO_LONG;
}

const INDENT = /^[ \t]/;
const HELD: Taken = { pass: false, notJson: 0 };
const PASS: Taken = { pass: true, notJson: 0 };

export class JsonDocuments {
  /** The open document's lines; undefined when none is open. */
  private lines: string[] | undefined;
  private count = 0;
  private length = 0;
  private tooLong = false;

  take(line: Line): Taken {
    if (this.lines === undefined) return this.start(line);
    if (line === TOO_LONG) this.tooLong = true;
    else if (INDENT.test(line)) this.gather(line);
    else if (line.trimEnd() === '}') return { pass: false, notJson: 0, document: this.close(line) };
    else {
      const notJson = this.abandon();
      return { ...this.start(line), notJson };
    }
    return HELD;
  }

  /** Lines of a document the source ended inside: cut short, not JSON. */
  unfinished(): number {
    return this.lines === undefined ? 0 : this.abandon();
  }

  /** Opens a document on a `{` alone; any other line is passed on. */
  private start(line: Line): Taken {
    if (line === TOO_LONG || line[0] !== '{' || line.trimEnd() !== '{') return PASS;
    this.lines = [];
    this.count = 0;
    this.length = 0;
    this.tooLong = false;
    this.gather(line);
    return HELD;
  }

  private gather(line: string): void {
    this.count++;
    this.length += line.length + 1;
    if (this.length > MAX_LINE_BYTES) this.tooLong = true;
    if (this.tooLong) this.lines!.length = 0;
    else this.lines!.push(line);
  }

  private close(line: string): { text: string; lines: number } | typeof TOO_LONG {
    this.gather(line);
    const document = this.tooLong ? TOO_LONG : { text: this.lines!.join('\n'), lines: this.count };
    this.lines = undefined;
    return document;
  }

  private abandon(): number {
    this.lines = undefined;
    return this.count;
  }
}
