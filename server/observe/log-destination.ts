import type { Writable } from 'node:stream';
import { levels, type DestinationStream } from 'pino';
import { LEVEL } from '../../shared/log-line.ts';

// Where the process's log lines go: stdout, without ever blocking a request on its reader.
// pino's synchronous destination waits in write(2) when the pipe is full, so a log shipper that
// stops reading stopped every request (docs/logs.md, "When stdout is not read"). Here the lines
// of one turn of the event loop go to the stream together at its end, while it holds nothing (a
// pipe being read takes them at once, in order: one write(2) for every request that turn
// finished instead of one each); once the pipe is full, lines wait in a queue of
// at most `maxBytes`, and past that they are dropped and counted. Lines below error may use
// only the part outside ERROR_RESERVE_SHARE, so failure lines are dropped last. Lines never
// change order: a line is queued behind everything before it or dropped, never put in front.
// When the queue has drained after drops, `onDrained` gets the counts (one warn line).

/** The share of the buffer only lines at error and above may fill: at the default 256 KiB, 8 failure lines at their 8 KB bound (log-bound.ts). */
const ERROR_RESERVE_SHARE = 1 / 4;
/**
 * Bytes handed to the stream at once while draining the queue: Linux's default pipe capacity
 * (pipe(7)), so one write fills what a reader has emptied and no more waits in the stream.
 */
const BATCH_BYTES = 64 * 1024;
/**
 * How long flush() waits for a stalled reader. A pipe being read takes 1 MiB in
 * 12–30 ms here (docs/logs.md); a reader that has taken nothing for half a second is not
 * reading. Shutdown stays inside Docker's 10 s stop timeout: 2 s delay, 5 s grace, 2 s of
 * Sentry, this (config.ts).
 */
const FLUSH_DEADLINE_MS = 500;
/** A turn's lines are handed over at once past this size, not held to its end: a write is never larger than a batch. */
const TURN_BYTES = BATCH_BYTES;

export type DropCounts = Record<string, number>;

export interface LogDestinationOptions {
  /** What may wait for a stalled reader (LOG_BUFFER_BYTES). */
  readonly maxBytes: number;
  /** Each dropped line, by level name (the log_lines_dropped_total metric). */
  readonly onDrop?: (level: string) => void;
  /** The queue has drained after drops: what was dropped since the last call, by level name. */
  readonly onDrained: (dropped: DropCounts) => void;
}

export interface LogDestination extends DestinationStream {
  /** pino's logger.flush(cb): calls back once everything queued is written (at once if nothing is), or after FLUSH_DEADLINE_MS. */
  flush(cb: () => void): void;
  /** Hands the turn's lines to the stream now (a process exiting has no later turn). */
  flushTurn(): void;
}

const levelName = (level: number): string => levels.labels[level] ?? String(level);

export function createLogDestination(out: Writable, options: LogDestinationOptions): LogDestination {
  const { maxBytes, onDrop, onDrained } = options;
  const belowErrorBytes = Math.floor(maxBytes * (1 - ERROR_RESERVE_SHARE));
  // A queue read from `head`: shift() would copy thousands of lines for each batch.
  let queue: string[] = [];
  let head = 0;
  let queuedBytes = 0;
  /** Bytes the stream holds because its fd was full; at most one chunk, as nothing is written while it holds any. */
  let pendingBytes = 0;
  let dropped: DropCounts = {};
  let anyDropped = false;
  /** The reader has gone (EPIPE): every line from now on is dropped. */
  let broken = false;
  let waiters: Array<() => void> = [];
  /** This turn's lines, written together once it ends (or once they fill a batch), while the stream is idle. */
  let turn: string[] = [];
  let turnBytes = 0;
  let turnScheduled = false;

  const drop = (level: number) => {
    const name = levelName(level);
    dropped[name] = (dropped[name] ?? 0) + 1;
    anyDropped = true;
    onDrop?.(name);
  };

  const send = (chunk: string) => {
    out.write(chunk, afterWrite);
    pendingBytes = out.writableLength > 0 ? Buffer.byteLength(chunk) : 0;
  };

  const nextBatch = (): string => {
    let end = head;
    let bytes = 0;
    while (end < queue.length && (end === head || bytes + queue[end]!.length <= BATCH_BYTES)) bytes += queue[end++]!.length;
    const batch = queue.slice(head, end).join('');
    head = end;
    queuedBytes -= Buffer.byteLength(batch);
    // Lines already sent go once they are half the array: a reader that keeps up only partly
    // never empties the queue, and the sent lines must not stay referenced.
    if (head * 2 >= queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
    return batch;
  };

  // Called for every write; only the one that empties the stream moves the queue on.
  function afterWrite(error?: Error | null): void {
    if (error) return fail();
    if (broken || out.writableLength > 0) return;
    pendingBytes = 0;
    while (head < queue.length) {
      send(nextBatch());
      if (out.writableLength > 0) return;
    }
    drained();
  }

  function drained(): void {
    const done = waiters;
    waiters = [];
    if (anyDropped && !broken) {
      const counts = dropped;
      dropped = {};
      anyDropped = false;
      onDrained(counts);
    }
    for (const resolve of done) resolve();
  }

  function flushTurn(): void {
    turnScheduled = false;
    if (turn.length === 0) return;
    const lines = turn;
    turn = [];
    turnBytes = 0;
    // Lines only gather while nothing waits: the stream and queue are idle unless a write in this
    // turn filled the stream, and then whatever came after the batch is queued behind it.
    if (broken) return;
    send(lines.length === 1 ? lines[0]! : lines.join(''));
  }

  // EPIPE or similar: nobody will read again. What is queued is lost; count it, stop queueing.
  function fail(): void {
    if (broken) return;
    broken = true;
    for (const line of [...turn, ...queue.slice(head)]) drop(Number(/^\{"level":(\d+)/.exec(line)?.[1] ?? 0));
    turn = [];
    turnBytes = 0;
    queue = [];
    head = 0;
    queuedBytes = 0;
    pendingBytes = 0;
    drained();
  }
  out.on('error', fail);

  return {
    // pino sets lastLevel on the destination before each write when this is set (pino's API, "metadata").
    [Symbol.for('pino.metadata')]: true,
    lastLevel: 0,
    write(this: { lastLevel: number }, line: string): void {
      const level = this.lastLevel;
      if (broken) return drop(level);
      if (head === queue.length && out.writableLength === 0) {
        turn.push(line);
        turnBytes += line.length;
        if (turnBytes >= TURN_BYTES) return flushTurn();
        if (!turnScheduled) {
          turnScheduled = true;
          setImmediate(flushTurn);
        }
        return;
      }
      const bytes = Buffer.byteLength(line);
      const bound = level >= LEVEL.error ? maxBytes : belowErrorBytes;
      if (queuedBytes + pendingBytes + bytes > bound) return drop(level);
      queue.push(line);
      queuedBytes += bytes;
    },
    flushTurn,
    flush(cb: () => void): void {
      flushTurn();
      // At once when nothing waits: a boot failure then exits before any other line is logged.
      if (broken || (head === queue.length && out.writableLength === 0)) return cb();
      let called = false;
      const once = () => {
        if (called) return;
        called = true;
        clearTimeout(timer);
        cb();
      };
      const timer = setTimeout(once, FLUSH_DEADLINE_MS);
      waiters.push(once);
    },
  } as LogDestination;
}
