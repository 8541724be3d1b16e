// Rate limits an app's loaders and actions ask for (`hostOf(context).limit`, shared/host-context.ts): a
// fixed window per rule name and client, keyed as the host's own per-client limits are
// (server/edge/rate-limit.ts). Counted in this process's memory, or with REDIS_URL in the Redis
// every replica shares (server/fleet/redis-windows.ts), so a client that switches replicas gets
// no new window (docs/forms.md, "Context and sessions").
import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { createMemoryWindows, type ClientWindows } from '../edge/client-windows.ts';

/**
 * A client's key: its address as TRUST_PROXY lets Express believe it (`req.ip`), an IPv6 one
 * by its /56, as express-rate-limit keys it: one subscriber holds a whole prefix and could
 * otherwise take a new address, and a new window, for every request.
 */
export function clientKey(req: Request): string {
  return req.ip === undefined ? 'unknown' : ipKeyGenerator(req.ip);
}

export interface LimitRule {
  /** Calls one client may make in a window. */
  limit: number;
  windowMs: number;
}

/** A rule's name is part of every key it counts under: short, so a key stays small in Redis too. */
const MAX_NAME_LENGTH = 100;
/**
 * A day: a window is state kept for every client that called, in memory or in Redis; a limit
 * over a longer period is a quota, which belongs in the app's database.
 */
export const MAX_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Why a call is the app's mistake, or undefined: thrown where it was made, as a bad argument is. */
function ruleProblem(name: unknown, rule: unknown): string | undefined {
  if (typeof name !== 'string' || name.length === 0 || name.length > MAX_NAME_LENGTH)
    return `the name must be a string of 1 to ${MAX_NAME_LENGTH} characters`;
  const { limit, windowMs } = (rule ?? {}) as Partial<LimitRule>;
  if (!Number.isSafeInteger(limit) || limit! < 1) return `"limit" must be a whole number of calls, 1 or more (got ${String(limit)})`;
  if (!Number.isSafeInteger(windowMs) || windowMs! < 1 || windowMs! > MAX_WINDOW_MS)
    return `"windowMs" must be a whole number of milliseconds from 1 to ${MAX_WINDOW_MS} (got ${String(windowMs)})`;
  return undefined;
}

export interface ClientLimits {
  /** Counts a call: undefined when it may go ahead, else the whole seconds until the client may again. */
  take(name: string, client: string, rule: LimitRule): Promise<number | undefined>;
}

/** `windows`: the fleet's (server/index.ts, with REDIS_URL), else this process's memory. */
export function createClientLimits(windows: ClientWindows = createMemoryWindows()): ClientLimits {
  return {
    async take(name, client, rule) {
      const problem = ruleProblem(name, rule);
      if (problem !== undefined) throw new TypeError(`context.limit: ${problem}`);
      // The name's length first: a name or a client (an IPv6 address) may hold any separator.
      const { count, resetAt } = await windows.hit(`app:${name.length}:${name}:${client}`, rule.windowMs);
      if (count <= rule.limit) return undefined;
      // At least a second: Retry-After is in whole seconds, and 0 would invite an immediate retry.
      return Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
    },
  };
}
