// How the bench and the soak start the real, built server: production, diagnostics on,
// Sentry off (no `--import` of the instrument file and no DSN), a fixed digest key.
import { buildSnapshot } from './build-snapshot.ts';
import { spawnServer, type RunningServer } from '../harness/spawn.ts';
import { BROWSER_UA } from '../harness/user-agents.ts';

export const DIAGNOSTICS_TOKEN = 'bench-soak-diagnostics-token';
export const DIAGNOSTICS_HEADER = 'x-diagnostics-token';
/** Fixed so digests are stable across the processes of one run (and no start-up warning). */
const DIGEST_KEY = 'bench-soak-digest-key-0001';

export const BROWSER_HEADERS: Readonly<Record<string, string>> = {
  'user-agent': BROWSER_UA,
  accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
  [DIAGNOSTICS_HEADER]: DIAGNOSTICS_TOKEN,
};

export interface AppServerOptions {
  logLevel: string;
  /** Keep every parsed line (default); the soak keeps only the log's indexes. */
  keepLines?: boolean;
  stdoutFile?: string;
  cpus?: string;
  env?: Record<string, string>;
  /** The bench's cold start is timed to the first 200 from /healthz, as it always was. */
  readyOn?: 'listening-line' | 'healthz';
  /** Another build's server (the bench's baseline: run.ts, --baseline); the frozen copy of dist/ by default. */
  serverEntry?: string;
  /** Another app's build for the host to serve (APP_BUILD: the bench's app, tools/bench/bench-app.ts); the demo by default. */
  appBuild?: string;
  /** Node's own options before the entry (the soak's inspector: tools/soak/live-heap.ts). */
  nodeArgs?: readonly string[];
}

export async function startAppServer(options: AppServerOptions): Promise<RunningServer> {
  return spawnServer({
    command: ['node', ...(options.nodeArgs ?? []), options.serverEntry ?? (await buildSnapshot()).serverEntry],
    env: {
      LOG_LEVEL: options.logLevel,
      DIAGNOSTICS_TOKEN,
      DIGEST_KEY,
      ...(options.appBuild !== undefined && { APP_BUILD: options.appBuild }),
      ...options.env,
    },
    keepLines: options.keepLines,
    stdoutFile: options.stdoutFile,
    cpus: options.cpus,
    readyOn: options.readyOn,
  });
}
