import type { Logger } from 'pino';
import { LINE_LEVEL } from './log-levels.ts';

// A client that keeps posting after its rate limit is refused with 429 every time. Logging each
// refusal would hand it the log: instead each (route, client) gets one line when refusals start
// and one line with the count when its window closes. The counts add up to the refusals.

/** The rate limits' own window (server/edge/rate-limit.ts users): one summary per client a minute. */
export const REFUSAL_WINDOW_MS = 60_000;
/**
 * Open windows kept at once. Beyond it (many addresses at once) refusals are counted under one
 * overflow key, so neither memory nor lines grow with the number of clients.
 */
export const MAX_OPEN_WINDOWS = 10_000;
export const OVERFLOW_KEY = '*';

export interface RefusalSummary {
  /** A request refused with 429 by the limiter on `route`, for the client `key`. */
  refused(route: string, key: string): void;
  /** Logs the counts of every open window now (at shutdown, before the last line). */
  flush(): void;
}

interface Window {
  route: string;
  key: string;
  opened: number;
  /** Refusals since the opening line. */
  count: number;
}

export function createRefusalSummary(logger: Logger, windowMs = REFUSAL_WINDOW_MS, maxOpen = MAX_OPEN_WINDOWS): RefusalSummary {
  // Insertion order is opening order: the first entry is always the next to close.
  const open = new Map<string, Window>();
  let timer: NodeJS.Timeout | undefined;

  const report = (window: Window, count: number) =>
    logger[LINE_LEVEL.refusals]({ route: window.route, key: window.key, status: 429, count, windowMs }, 'requests refused');

  function close(window: Window, id: string): void {
    open.delete(id);
    if (window.count > 0) report(window, window.count);
  }

  function sweep(): void {
    timer = undefined;
    const now = Date.now();
    for (const [id, window] of open) {
      if (window.opened + windowMs > now) break;
      close(window, id);
    }
    schedule();
  }

  function schedule(): void {
    const next = open.values().next();
    if (timer !== undefined || next.done) return;
    // unref: a pending summary never keeps the process alive; flush() covers the exit.
    timer = setTimeout(sweep, Math.max(0, next.value.opened + windowMs - Date.now())).unref();
  }

  return {
    refused(route, clientKey) {
      // Past the cap, new clients share one window per route (the cap plus one per route).
      const key = open.size >= maxOpen && !open.has(`${route} ${clientKey}`) ? OVERFLOW_KEY : clientKey;
      const id = `${route} ${key}`;
      const window = open.get(id);
      if (window) {
        window.count++;
        return;
      }
      const opened: Window = { route, key, opened: Date.now(), count: 0 };
      open.set(id, opened);
      report(opened, 1);
      schedule();
    },
    flush() {
      clearTimeout(timer);
      timer = undefined;
      for (const [id, window] of open) close(window, id);
    },
  };
}
