import { randomUUID } from 'node:crypto';
import type { RevalidateTarget } from '../../shared/host-context.ts';
import { KEY_PREFIX, type RedisConnection } from './redis-connection.ts';

// Where an invalidation is told to every replica (docs/caching.md, "Dropping entries"): a
// channel on the fleet's Redis. Each replica then forgets what it learned of the pages named, and
// drops its own entries when they are in its memory (stored pages in a Redis of their own,
// CACHE_REDIS_URL, are deleted once, by the replica that invalidated). Over the state's Redis
// (REDIS_URL) where there is one: publishing stores nothing, so it never competes with limits.

/** Where revalidations are published to every replica. */
export const INVALIDATION_CHANNEL = `${KEY_PREFIX}invalidate`;

export interface InvalidationChannel {
  /** Tells every other replica; false when Redis did not take it in time (the caller retries). */
  publish(target: RevalidateTarget): Promise<boolean>;
  /** Calls `listener` with each target another replica published. */
  subscribe(listener: (target: RevalidateTarget) => void): void;
}

/** `{ path }` or `{ tag }` with a string, as revalidate() publishes it. */
function isTarget(value: unknown): value is RevalidateTarget {
  if (typeof value !== 'object' || value === null) return false;
  const { path, tag } = value as Record<string, unknown>;
  return typeof path === 'string' || typeof tag === 'string';
}

export function createInvalidationChannel(redis: RedisConnection): InvalidationChannel {
  /** This process, so it does not act twice on what it published itself. */
  const self = randomUUID();
  return {
    async publish(target) {
      const message = JSON.stringify({ ...target, from: self });
      return (await redis.bounded((client) => client.publish(INVALIDATION_CHANNEL, message), false)) !== false;
    },
    subscribe(listener) {
      // A shared Redis may carry anything on the channel: a message that is not a target is dropped
      // (the connection catches what a listener throws).
      redis.subscribe(INVALIDATION_CHANNEL, (message) => {
        const { from, ...target } = JSON.parse(message) as { from?: unknown };
        if (from !== self && isTarget(target)) listener(target);
      });
    },
  };
}
