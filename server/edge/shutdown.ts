import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { LINE_LEVEL } from '../observe/log-levels.ts';

// The shutdown sequence, started by the first SIGTERM or SIGINT:
//   1. deregister: /readyz answers 503 for `delayMs` while the server still accepts and serves,
//      so a load balancer's health check takes this replica out before anything is refused;
//   2. drain: stop accepting, close idle keep-alive sockets, let in-flight responses (streams
//      included) finish within `graceMs`, then close whatever is still open.
// Later signals are logged and ignored: a terminal's Ctrl-C reaches both npm and node, and npm
// forwards its copy, so one keypress is two SIGINTs. SIGKILL (or SIGQUIT, which we leave to
// its default action) ends the process at once.

/** Idle keep-alive sockets are closed this often while draining, so the drain ends promptly. */
const IDLE_SWEEP_MS = 100;

export interface ShutdownTimings {
  /** How long readiness answers 503 before the listener closes. */
  readonly delayMs: number;
  /** How long in-flight responses may take once the listener is closed. */
  readonly graceMs: number;
}

export interface Drain {
  /** True from the first signal on: readiness answers 503. */
  readonly isShuttingDown: () => boolean;
  /** Runs the sequence once (later calls get the same promise); true if nothing was cut. */
  drain(server: Server, signal: string): Promise<boolean>;
}

/** Stops accepting and waits for open responses; after `graceMs` closes what is left. */
function closeServer(server: Server, logger: Logger, graceMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    logger[LINE_LEVEL.lifecycle]({ graceMs }, 'draining: no new connections; waiting for in-flight responses');
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const deadline = setTimeout(() => {
      clearInterval(sweep);
      logger[LINE_LEVEL.lifecycleWarning]({ graceMs }, 'grace period over: closing the connections still open');
      server.closeAllConnections();
      resolve(false);
    }, graceMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve(true);
    });
    server.closeIdleConnections();
  });
}

export function createDrain(logger: Logger, timings: ShutdownTimings): Drain {
  let draining: Promise<boolean> | undefined;
  return {
    isShuttingDown: () => draining !== undefined,
    drain(server, signal) {
      if (draining) {
        logger[LINE_LEVEL.lifecycleWarning](
          { signal },
          `${signal} while shutting down: ignored (SIGKILL or SIGQUIT stops the process at once)`,
        );
        return draining;
      }
      logger[LINE_LEVEL.lifecycle]({ signal, ...timings }, 'shutting down: readiness answers 503, still serving until the delay is over');
      draining = new Promise<void>((resolve) => setTimeout(resolve, timings.delayMs)).then(() =>
        server.listening ? closeServer(server, logger, timings.graceMs) : true,
      );
      return draining;
    },
  };
}
