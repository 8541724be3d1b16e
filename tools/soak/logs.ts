// The server's log, as the soak needs it: failure lines by request id, access lines counted
// by request id, and the last line. Other lines are counted, not kept.

export type LogLine = Record<string, unknown> & { level?: number; msg?: string };

/** pino's level for `error`: every 5xx failure is logged there, exactly once. */
export const ERROR_LEVEL = 50;
/** The access line's messages (server/access-log.ts): one line per request. */
const ACCESS_MESSAGE = /^request (completed|aborted)$/;

export class LogIndex {
  readonly failuresByReq = new Map<string, LogLine[]>();
  /** Error lines with no request: process faults, or a failure logged without its reqId. */
  readonly otherFailures: LogLine[] = [];
  readonly accessByReq = new Map<string, number>();
  /** Lines on stdout that are not JSON (nothing should be). */
  readonly notJson: string[] = [];
  lines = 0;
  /** Bytes of stdout so far (UTF-8, newlines included), and the longest line. */
  bytes = 0;
  longestLineBytes = 0;
  /** Lines that contain this marker (the abusive clients' big header must be in none). */
  marker: string | undefined;
  markedLines = 0;
  last: LogLine | undefined;
  /** The "stopped" line, and any written after it (nothing should be). */
  stopped: LogLine | undefined;
  readonly afterStopped: LogLine[] = [];

  readonly add = (text: string): void => {
    const size = Buffer.byteLength(text) + 1;
    this.bytes += size;
    this.longestLineBytes = Math.max(this.longestLineBytes, size);
    if (this.marker !== undefined && text.includes(this.marker)) this.markedLines++;
    if (text.trim() === '') return;
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      this.notJson.push(text);
      return;
    }
    this.lines++;
    this.last = line;
    if (this.stopped) this.afterStopped.push(line);
    if (line.msg === 'stopped') this.stopped = line;
    if ((line.level ?? 0) >= ERROR_LEVEL) this.addFailure(line);
    const accessId = line.reqId;
    if (typeof accessId === 'string' && ACCESS_MESSAGE.test(String(line.msg))) {
      this.accessByReq.set(accessId, (this.accessByReq.get(accessId) ?? 0) + 1);
    }
  };

  private addFailure(line: LogLine): void {
    if (typeof line.reqId !== 'string') {
      this.otherFailures.push(line);
      return;
    }
    const lines = this.failuresByReq.get(line.reqId) ?? [];
    lines.push(line);
    this.failuresByReq.set(line.reqId, lines);
  }

  failureCount(): number {
    let count = this.otherFailures.length;
    for (const lines of this.failuresByReq.values()) count += lines.length;
    return count;
  }
}
