import { setNewest } from '../../shared/bounded-map.ts';

// Fixed-window counters of per-client rate limits: the host's own (rate-limit.ts) and those an
// app's loaders and actions ask for (server/writes/client-limits.ts). In this process's memory by
// default; with REDIS_URL, in the Redis every replica shares (server/fleet/redis-windows.ts), so
// a client that switches replicas gets no new window.

/** One client's window after a call was counted in it. */
export interface WindowHit {
  /** Calls counted in the window, this one included. */
  count: number;
  /** When the window ends (ms since the epoch). */
  resetAt: number;
}

export interface ClientWindows {
  /** Counts one call under `key` in its window (a new one of `windowMs` when none is open). */
  hit(key: string, windowMs: number): WindowHit | Promise<WindowHit>;
  /** Takes one call back (express-rate-limit's `decrement`). */
  undo(key: string): void | Promise<void>;
  /** Forgets the window (express-rate-limit's `resetKey`). */
  forget(key: string): void | Promise<void>;
}

/** Windows tracked at once: past it the oldest is forgotten, so a flood of addresses cannot grow the process. */
const MAX_TRACKED_WINDOWS = 10_000;

/** The memory windows answer at once: callers on the hot path need not wait a tick. */
export interface MemoryWindows extends ClientWindows {
  hit(key: string, windowMs: number, now?: number): WindowHit;
  undo(key: string): void;
  forget(key: string): void;
}

export function createMemoryWindows(max = MAX_TRACKED_WINDOWS): MemoryWindows {
  // Insertion order is age order: a window that starts again moves to the end.
  const windows = new Map<string, WindowHit>();
  return {
    hit(key, windowMs, now = Date.now()) {
      let window = windows.get(key);
      if (window === undefined || now >= window.resetAt) {
        window = { count: 0, resetAt: now + windowMs };
        setNewest(windows, key, window, max);
      }
      window.count += 1;
      return { count: window.count, resetAt: window.resetAt };
    },
    undo(key) {
      const window = windows.get(key);
      if (window !== undefined && window.count > 0) window.count -= 1;
    },
    forget(key) {
      windows.delete(key);
    },
  };
}
