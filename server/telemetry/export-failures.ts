// An export that fails (a collector down, a key refused) is said on the log, not dropped in
// silence: OpenTelemetry's batch processors hand each failed batch to its global error handler
// (@opentelemetry/core's setGlobalErrorHandler), which by default writes to a diagnostic logger
// nobody has set. Loaded with OTLP export only (server/index.ts).
import { setGlobalErrorHandler } from '@opentelemetry/core';
import type { Logger } from 'pino';
import { LINE_LEVEL } from '../observe/log-levels.ts';

/** At most one line a minute, with how many batches failed since the last: a collector down for an hour writes 60 lines, not one per batch. */
export const EXPORT_FAILURE_WINDOW_MS = 60_000;
/** What an exporter's message may take of the line (a collector's answer can be a whole page). */
const MAX_MESSAGE_CHARS = 300;

export function sayExportFailures(logger: Logger, now: () => number = Date.now): void {
  let failed = 0;
  let saidAt = -Infinity;
  setGlobalErrorHandler((error) => {
    failed += 1;
    if (now() - saidAt < EXPORT_FAILURE_WINDOW_MS) return;
    // OpenTelemetry's Exception: a string, or an object with a message, a name or a code.
    const message = (typeof error === 'string' ? error : (error.message ?? error.name ?? `code ${error.code}`)).slice(0, MAX_MESSAGE_CHARS);
    // Its own log record is exported too, and may fail in turn: the window holds that to one line a minute as well.
    logger[LINE_LEVEL.report]({ failedBatches: failed, exportError: message }, 'OTLP export failed: spans or log records were dropped');
    failed = 0;
    saidAt = now();
  });
}
