import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { boundLine } from './log-bound.ts';
import { createLogDestination } from './log-destination.ts';
import { LINE_LEVEL } from './log-levels.ts';
import type { Metrics } from './metrics.ts';
import { LOG_DROPS_MESSAGE } from '../../shared/log-line.ts';

// The process's one logger: pino JSON lines on stdout. The access line is built in
// access-log.ts, the failure line in failures/recorder.ts; neither carries request headers unless
// an operator allow-lists them, so no line needs redaction paths (which pino would run per line).
// Every line, of any kind, is at most 8 KB (log-bound.ts).

/** What the logger takes of the configuration (server/config/config.ts), so logging sits below it. */
export interface LoggerConfig {
  readonly logLevel: string;
  readonly release: string;
  /** On every line beside the release, so lines gathered from many replicas say whose they are. */
  readonly replica: string;
  /** `pretty` (development's default) or `json`. */
  readonly logFormat: 'json' | 'pretty';
  readonly logBufferBytes: number;
}

/** `exportLine`: each line as written, also to OpenTelemetry's logs (server/telemetry/otel-logs.ts). */
export function createLogger(
  config: LoggerConfig,
  destination?: DestinationStream,
  metrics?: Metrics,
  exportLine?: (line: string) => void,
): Logger {
  const streamWrite = exportLine === undefined ? boundLine : (line: string) => exported(boundLine(line), exportLine);
  const options = { level: config.logLevel, base: { release: config.release, replica: config.replica }, hooks: { streamWrite } };
  if (destination) return pino(options, destination);
  // Pretty output is for people at a dev terminal (LOG_FORMAT); everything else gets JSON lines.
  if (config.logFormat === 'pretty') return pino({ ...options, transport: { target: 'pino-pretty' } });
  return stdoutLogger(options, config.logBufferBytes, metrics);
}

function exported(line: string, exportLine: (line: string) => void): string {
  exportLine(line);
  return line;
}

/**
 * Lines reach stdout in order and at once while it is read; a stalled reader costs dropped lines,
 * counted, never a stalled request (log-destination.ts). pino's synchronous destination kept
 * order but waited on the pipe: with stdout unread, /about fell from 643 to 40 req/s.
 */
function stdoutLogger(options: LoggerOptions<never>, maxBytes: number, metrics: Metrics | undefined): Logger {
  const destination = createLogDestination(process.stdout, {
    maxBytes,
    onDrop: metrics?.logLineDropped,
    onDrained: (droppedByLevel) => {
      const dropped = Object.values(droppedByLevel).reduce((sum, count) => sum + count, 0);
      logger[LINE_LEVEL.logDrops]({ dropped, droppedByLevel, bufferBytes: maxBytes }, LOG_DROPS_MESSAGE);
    },
  });
  // onDrained runs only after lines were written, so `logger` is set by then.
  const logger = pino(options, destination);
  // Lines wait for the end of their turn (log-destination.ts); an exit without a flush has no next turn.
  process.once('exit', destination.flushTurn);
  return logger;
}

/**
 * Resolves once every queued line is written, or after the destination's deadline when nobody
 * reads (log-destination.ts): before any exit, so the last lines, "stopped" among them, are out.
 */
export function flushLogs(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
