// A server's stdout, read the way an operator's tools read it (shared/log-line.ts): one JSON
// object per line. Tests keep every line to assert on; the soak, which reads hundreds of
// thousands, keeps only its indexes (failures and access lines by request id, sizes).
import { EventEmitter } from 'node:events';
import { isAccessLine, LEVEL, STOPPED_MESSAGE, type LogLine } from '../../shared/log-line.ts';

export type { LogLine };

/** How long waitFor waits for a line by default: a spawned server writes within seconds. */
const WAIT_TIMEOUT_MS = 10_000;

export class ServerLog {
  /** Every parsed line, in order (only with `keepLines`). */
  readonly lines: LogLine[] = [];
  /** The same lines as written, to weigh them (only with `keepLines`). */
  readonly raw: string[] = [];
  /** Lines that were not JSON: a server must write none (npm may, before it starts node). */
  readonly notJson: string[] = [];
  /** Lines at level error or above, by request id; and those with no request (process faults). */
  readonly failuresByReq = new Map<string, LogLine[]>();
  readonly otherFailures: LogLine[] = [];
  /** Access lines per request id: every request must have exactly one. */
  readonly accessByReq = new Map<string, number>();
  count = 0;
  /** Bytes written so far (UTF-8, newlines included), and the longest line. */
  bytes = 0;
  longestLineBytes = 0;
  /** Lines that contain this marker (an abusive client's header must be in none). */
  marker: string | undefined;
  markedLines = 0;
  last: LogLine | undefined;
  /** The "stopped" line, and any written after it (nothing should be). */
  stopped: LogLine | undefined;
  readonly afterStopped: LogLine[] = [];

  private partial = '';
  private readonly arrivals = new EventEmitter();

  constructor(private readonly keepLines = true) {}

  /** Text as it comes from the process, in pieces that need not end at a line. */
  readonly write = (text: string): void => {
    const parts = (this.partial + text).split('\n');
    this.partial = parts.pop() ?? '';
    for (const part of parts) this.addLine(part);
  };

  /** The text ends: a last line without its newline is still a line. */
  readonly end = (): void => {
    const rest = this.partial;
    this.partial = '';
    if (rest !== '') this.addLine(rest);
  };

  /** One whole line, without its newline. */
  readonly addLine = (text: string): void => {
    const size = Buffer.byteLength(text) + 1;
    this.bytes += size;
    this.longestLineBytes = Math.max(this.longestLineBytes, size);
    if (this.marker !== undefined && text.includes(this.marker)) this.markedLines++;
    if (text.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    // `null`, a number or an array is JSON but no log line: every line a server writes is an object.
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return void this.notJson.push(text);
    const line = parsed as LogLine;
    this.count++;
    this.last = line;
    if (this.keepLines) {
      this.lines.push(line);
      this.raw.push(text);
    }
    if (this.stopped) this.afterStopped.push(line);
    if (line.msg === STOPPED_MESSAGE) this.stopped = line;
    if (isFailure(line)) this.index(this.failuresByReq, this.otherFailures, line);
    if (typeof line.reqId === 'string' && isAccessLine(line)) this.accessByReq.set(line.reqId, (this.accessByReq.get(line.reqId) ?? 0) + 1);
    this.arrivals.emit('line', line);
  };

  private index(byReq: Map<string, LogLine[]>, other: LogLine[], line: LogLine): void {
    if (typeof line.reqId !== 'string') return void other.push(line);
    const lines = byReq.get(line.reqId) ?? [];
    lines.push(line);
    byReq.set(line.reqId, lines);
  }

  /** Lines at level error or above. */
  failureCount(): number {
    let count = this.otherFailures.length;
    for (const lines of this.failuresByReq.values()) count += lines.length;
    return count;
  }

  /** Lines about one request: its access line and any failure line carry its reqId. */
  forRequest(id: string): LogLine[] {
    return this.lines.filter((line) => line.reqId === id);
  }

  /** Failure lines (level error or above, as failuresByReq counts them), of one request or all. */
  failures(id?: string): LogLine[] {
    return this.lines.filter((line) => isFailure(line) && (id === undefined || line.reqId === id));
  }

  /** The request's access line. */
  access(id: string): LogLine | undefined {
    return this.lines.find((line) => line.reqId === id && isAccessLine(line));
  }

  accessLines(): LogLine[] {
    return this.lines.filter(isAccessLine);
  }

  /** Resolves with the first line matching `predicate`, written already or when it is. */
  waitFor(predicate: (line: LogLine) => boolean, timeoutMs = WAIT_TIMEOUT_MS): Promise<LogLine> {
    const found = this.lines.find(predicate);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.arrivals.off('line', onLine);
        reject(new Error(`no matching log line within ${timeoutMs} ms`));
      }, timeoutMs);
      const onLine = (line: LogLine) => {
        if (!predicate(line)) return;
        clearTimeout(timer);
        this.arrivals.off('line', onLine);
        resolve(line);
      };
      this.arrivals.on('line', onLine);
    });
  }
}

/** A failure: a line at level error or above (a browser's report is a warning). */
const isFailure = (line: LogLine): boolean => typeof line.level === 'number' && line.level >= LEVEL.error;

/** A whole log at once (a container's `logs`, say): its JSON lines, parsed. */
export function parseLog(text: string): LogLine[] {
  const log = new ServerLog();
  log.write(text);
  log.end();
  return log.lines;
}
