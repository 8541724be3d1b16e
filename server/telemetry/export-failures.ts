// An export that fails (a collector down, a key refused) is said on the log, not dropped in
// silence: OpenTelemetry's batch processors hand each failed batch to its global error handler
// (@opentelemetry/core's setGlobalErrorHandler), which by default writes to a diagnostic logger
// nobody has set. Loaded with OTLP export only (server/index.ts).
import { setGlobalErrorHandler, type ErrorHandler } from '@opentelemetry/core';
import type { Logger } from 'pino';
import { LINE_LEVEL } from '../observe/log-levels.ts';

/**
 * At most one line a window, with how many batches failed since the last: a collector down for an
 * hour writes 60 lines, not one per batch. Failures the window held back are said at its end.
 */
export const EXPORT_FAILURE_WINDOW_MS = 60_000;
/** What an exporter's message may take of the line (a collector's answer can be a whole page). */
const MAX_MESSAGE_CHARS = 300;
export const EXPORT_FAILED_MESSAGE = 'OTLP export failed: spans or log records were dropped';

export interface ExportFailures {
  /** What OpenTelemetry calls (set as its global error handler); the tests call it as OpenTelemetry would. */
  handler: ErrorHandler;
  /** Says what the window holds now: at exit, before the "stopped" line. */
  flush(): void;
}

/** Sets the process's handler. `now`: a monotonic clock (a wall clock that steps would shift the window). */
export function sayExportFailures(logger: Logger, now: () => number = () => performance.now()): ExportFailures {
  let failed = 0;
  let saidAt = -Infinity;
  let lastMessage = '';
  let held: NodeJS.Timeout | undefined;
  const say = () => {
    clearTimeout(held);
    held = undefined;
    if (failed === 0) return;
    // Its own log record is exported too, and may fail in turn: the window holds that to one line as well.
    logger[LINE_LEVEL.report]({ failedBatches: failed, exportError: lastMessage }, EXPORT_FAILED_MESSAGE);
    failed = 0;
    saidAt = now();
  };
  const handler: ErrorHandler = (error) => {
    failed += 1;
    // OpenTelemetry's Exception: a string, or an object with a message, a name or a code.
    lastMessage = (typeof error === 'string' ? error : (error.message ?? error.name ?? `code ${error.code}`)).slice(0, MAX_MESSAGE_CHARS);
    const wait = saidAt + EXPORT_FAILURE_WINDOW_MS - now();
    if (wait <= 0) return say();
    // Unref'd: a process with nothing else to do does not stay up for it.
    held ??= setTimeout(say, wait).unref();
  };
  setGlobalErrorHandler(handler);
  return { handler, flush: say };
}
