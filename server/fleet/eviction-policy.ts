import type { Logger } from 'pino';
import type { RedisConnection } from './redis-connection.ts';

// The state's Redis (REDIS_URL) must never evict: a rate-limit window or a spent proof dropped
// under memory pressure is a limit a client got around (docs/deploy.md, "Redis"). Redis says its
// policy in INFO (which managed services allow where they refuse CONFIG); told once per
// connection made, at warn, when it would evict. Stored pages live on another server
// (CACHE_REDIS_URL), whose eviction is its job.

export const EVICTING_STATE_MESSAGE =
  'REDIS_URL evicts keys when full: rate-limit windows and spent report proofs may be dropped; set maxmemory-policy noeviction (docs/deploy.md)';

/** `maxmemory_policy:<policy>` in INFO memory's answer. */
const POLICY = /^maxmemory_policy:(\S+)/m;

export function watchEvictionPolicy(redis: RedisConnection, logger: Logger): void {
  const check = async () => {
    const info = await redis.bounded((client) => client.info('memory'), '');
    const policy = POLICY.exec(info)?.[1];
    if (policy !== undefined && policy !== 'noeviction') logger.warn({ maxmemoryPolicy: policy }, EVICTING_STATE_MESSAGE);
  };
  redis.client.on('ready', () => void check());
}
