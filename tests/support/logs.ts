import { Writable } from 'node:stream';

export type LogLine = Record<string, unknown> & { level: number; msg?: string };

export const LEVEL = { debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;

/** The access line's two messages: the response finished, or the client left first. */
export const isAccessLine = (line: LogLine) => line.msg === 'request completed' || line.msg === 'request aborted';

/** A pino destination that keeps every line, parsed, for assertions. */
export class LogCapture extends Writable {
  readonly lines: LogLine[] = [];
  /** The same lines as written, to weigh them. */
  readonly raw: string[] = [];
  /** Lines that were not JSON: a server must write none (npm may). */
  readonly other: string[] = [];
  private partial = '';

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.push(chunk.toString('utf8'));
    callback();
  }

  push(text: string): void {
    const parts = (this.partial + text).split('\n');
    this.partial = parts.pop() ?? '';
    // Only JSON lines are log lines (npm and pino-pretty may print others).
    for (const part of parts) {
      if (part.startsWith('{')) {
        this.raw.push(part);
        this.lines.push(JSON.parse(part) as LogLine);
      } else if (part !== '') this.other.push(part);
    }
  }

  /** Lines about one request: its access line and failure lines both carry its reqId. */
  forRequest(id: string): LogLine[] {
    return this.lines.filter((line) => line.reqId === id);
  }

  /** Failure lines: the one line each failure gets (they carry the serialized error). */
  failures(id?: string): LogLine[] {
    return this.lines.filter((line) => line.error !== undefined && (id === undefined || line.reqId === id));
  }

  /** The request's access line (README, "The access line"). */
  access(id: string): LogLine | undefined {
    return this.lines.find((line) => line.reqId === id && isAccessLine(line));
  }

  /** Every access line, in order. */
  accessLines(): LogLine[] {
    return this.lines.filter(isAccessLine);
  }

  /** Resolves once a line matching `predicate` has been written. */
  async waitFor(predicate: (line: LogLine) => boolean, timeoutMs = 10_000): Promise<LogLine> {
    const started = Date.now();
    for (;;) {
      const found = this.lines.find(predicate);
      if (found) return found;
      if (Date.now() - started > timeoutMs) throw new Error('timed out waiting for a log line');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
