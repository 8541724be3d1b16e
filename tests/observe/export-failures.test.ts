import { loggingErrorHandler, setGlobalErrorHandler } from '@opentelemetry/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../server/config/config.ts';
import { createLogger } from '../../server/observe/logger.ts';
import { EXPORT_FAILED_MESSAGE, EXPORT_FAILURE_WINDOW_MS, sayExportFailures } from '../../server/telemetry/export-failures.ts';
import { ServerLog } from '../../tools/harness/server-log.ts';

// How failed OTLP exports reach the log (server/telemetry/export-failures.ts), the clock and timers
// the test's: a collector down for good writes a line a window, with the batches failed since.
// tests/observe/otlp-export.test.ts sees the first line from a real exporter.

describe('failed exports on the log', () => {
  afterEach(() => {
    vi.useRealTimers();
    // OpenTelemetry's own again: the test files after this one share the worker's modules.
    setGlobalErrorHandler(loggingErrorHandler());
  });

  it('says the first at once, holds the rest of its window, and says those at the window’s end with their count', async () => {
    vi.useFakeTimers();
    const logs = new ServerLog();
    const logger = createLogger(loadConfig({ NODE_ENV: 'production' }), logs);
    const { handler, flush } = sayExportFailures(logger, () => Date.now());
    const said = () => logs.lines.filter((line) => line.msg === EXPORT_FAILED_MESSAGE);

    handler(new Error('Bad Request'));
    expect(said()).toEqual([expect.objectContaining({ level: 40, failedBatches: 1, exportError: 'Bad Request' })]);
    for (let i = 0; i < 5; i++) {
      await vi.advanceTimersByTimeAsync(5_000);
      handler(i === 4 ? 'socket hang up' : new Error('Bad Request'));
    }
    expect(said()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(EXPORT_FAILURE_WINDOW_MS);
    expect(said().slice(1)).toEqual([expect.objectContaining({ failedBatches: 5, exportError: 'socket hang up' })]);
    // Nothing failed since: nothing more is said.
    await vi.advanceTimersByTimeAsync(3 * EXPORT_FAILURE_WINDOW_MS);
    expect(said()).toHaveLength(2);
    // At exit, what the window holds is said at once (the last export, the likeliest to fail), and only that.
    handler(new Error('first'));
    handler(new Error('held at exit'));
    flush();
    flush();
    expect(said().slice(2)).toEqual([
      expect.objectContaining({ failedBatches: 1, exportError: 'first' }),
      expect.objectContaining({ failedBatches: 1, exportError: 'held at exit' }),
    ]);
    await vi.advanceTimersByTimeAsync(3 * EXPORT_FAILURE_WINDOW_MS);
    expect(said()).toHaveLength(4);
  });
});
