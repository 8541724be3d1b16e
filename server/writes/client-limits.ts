// Rate limits an app's loaders and actions ask for (`context.limit`, shared/page-seam.ts): a
// fixed window per rule name and client, keyed as the host's own per-client limits are
// (server/edge/rate-limit.ts). One per app, in this process's memory: behind a balancer each replica
// counts on its own and a restart forgets (docs/forms.md, "Context and sessions").
import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { setNewest } from '../../shared/bounded-map.ts';

/**
 * A client's key: its address as TRUST_PROXY lets Express believe it (`req.ip`), an IPv6 one
 * by its /56, as express-rate-limit keys it: one subscriber holds a whole prefix and could
 * otherwise take a new address, and a new window, for every request.
 */
export function clientKey(req: Request): string {
  return req.ip === undefined ? 'unknown' : ipKeyGenerator(req.ip);
}

/** Windows tracked at once: past it the oldest is forgotten, so a flood of addresses cannot grow the process. */
export const MAX_TRACKED_WINDOWS = 10_000;

export interface LimitRule {
  /** Calls one client may make in a window. */
  limit: number;
  windowMs: number;
}

export interface ClientLimits {
  /** Counts a call: undefined when it may go ahead, else the whole seconds until the client may again. */
  take(name: string, client: string, rule: LimitRule, now?: number): number | undefined;
}

export function createClientLimits(): ClientLimits {
  // Insertion order is age order: a window that starts again moves to the end.
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(name, client, { limit, windowMs }, now = Date.now()) {
      const key = `${name}\n${client}`;
      let window = windows.get(key);
      if (window === undefined || now - window.start >= windowMs) {
        window = { start: now, count: 0 };
        setNewest(windows, key, window, MAX_TRACKED_WINDOWS);
      }
      if (window.count >= limit) return Math.ceil((window.start + windowMs - now) / 1000);
      window.count += 1;
      return undefined;
    },
  };
}
