import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.ts';
import { boundLine } from './log-bound.ts';

// The process's one logger: pino JSON lines on stdout. The access line is built in
// access-log.ts, the failure line in failures/recorder.ts; neither carries request headers unless
// an operator allow-lists them, so no line needs redaction paths (which pino would run per line).
// Every line, of any kind, is at most 8 KB (log-bound.ts).

export function createLogger(config: Config, destination?: DestinationStream): Logger {
  const options = { level: config.logLevel, base: { release: config.release }, hooks: { streamWrite: boundLine } };
  if (destination) return pino(options, destination);
  // Pretty output is for people at a terminal in dev; everything else gets JSON lines.
  if (config.nodeEnv === 'development') return pino({ ...options, transport: { target: 'pino-pretty' } });
  // Synchronous writes: at exit (SIGTERM, a fault) no line is left in a buffer, and lines stay
  // in order. The soak caught an async write landing after "stopped".
  return pino(options, pino.destination({ dest: 1, sync: true }));
}
