// How the bench and the soak start the real, built server: production, diagnostics on,
// Sentry off (no `--import` of the instrument file and no DSN), a fixed digest key.
import { buildSnapshot } from './build-snapshot.ts';
import { spawnServer, type RunningServer } from './spawn.ts';

export const DIAGNOSTICS_TOKEN = 'bench-soak-diagnostics-token';
export const DIAGNOSTICS_HEADER = 'x-diagnostics-token';
/** Fixed so digests are stable across the processes of one run (and no start-up warning). */
const DIGEST_KEY = 'bench-soak-digest-key-0001';

/** A current desktop Chrome: people get the streamed shell first (isbot says no). */
export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
/** Crawlers get the complete page at once (onAllReady). */
export const CRAWLER_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

export const BROWSER_HEADERS: Readonly<Record<string, string>> = {
  'user-agent': BROWSER_UA,
  accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
  [DIAGNOSTICS_HEADER]: DIAGNOSTICS_TOKEN,
};

export interface AppServerOptions {
  logLevel: string;
  onLine?: (line: string) => void;
  stdoutFile?: string;
  cpus?: string;
  env?: Record<string, string>;
}

export function startAppServer(options: AppServerOptions): Promise<RunningServer> {
  return spawnServer({
    args: [buildSnapshot().serverEntry],
    env: { LOG_LEVEL: options.logLevel, DIAGNOSTICS_TOKEN, DIGEST_KEY, ...options.env },
    onLine: options.onLine,
    stdoutFile: options.stdoutFile,
    cpus: options.cpus,
  });
}
