import type { Server } from 'node:http';
import type { Logger } from 'pino';

/** Idle keep-alive sockets are closed this often while draining, so the drain ends promptly. */
const IDLE_SWEEP_MS = 100;

export interface Drain {
  readonly isShuttingDown: () => boolean;
  /** Stops accepting, lets in-flight responses finish within the grace period; true if clean. */
  drain(server: Server, signal: string): Promise<boolean>;
}

export function createDrain(logger: Logger, graceMs: number): Drain {
  let draining: Promise<boolean> | undefined;
  return {
    isShuttingDown: () => draining !== undefined,
    drain(server, signal) {
      draining ??= new Promise<boolean>((resolve) => {
        logger.info({ signal, graceMs }, 'draining: no new connections; waiting for in-flight responses');
        const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
        const deadline = setTimeout(() => {
          logger.warn({ graceMs }, 'grace period over: closing the connections still open');
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
      return draining;
    },
  };
}
