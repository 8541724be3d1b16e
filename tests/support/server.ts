import { ServerLog } from '../../tools/harness/server-log.ts';
import { spawnServer, type RunningServer } from '../../tools/harness/spawn.ts';

export type { RunningServer };

/**
 * The harness's spawner (tools/harness/spawn.ts) with the tests' defaults: every access line
 * (LOG_LEVEL=info), and no readiness delay before a drain (SHUTDOWN_DELAY_MS=0) unless a test
 * sets one: the delay only matters behind a load balancer.
 */
export function startServer(env: Record<string, string> = {}, command?: readonly string[], logs?: ServerLog): Promise<RunningServer> {
  return spawnServer({ command, logs, env: { LOG_LEVEL: 'info', SHUTDOWN_DELAY_MS: '0', ...env } });
}

export { ServerLog };
