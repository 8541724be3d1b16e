import { createSpentProofs, type MemorySpentProofs, type SpentProofs } from '../failures/spent-proofs.ts';
import { KEY_PREFIX, type RedisConnection } from './redis-connection.ts';

// Spent report proofs in the Redis every replica shares (REDIS_URL): a browser report's proof
// (server/failures/report-proof.ts) verifies once for the fleet, not once per replica it is sent
// to. One SET NX PX per proof: atomic, so two replicas spending the same proof at once cannot
// both win, and it expires when the proof stops verifying on its own (5 to 10 minutes).
//
// Only a proof whose HMAC checked out is ever written, so a stranger cannot fill Redis with
// keys: each one stands for a page whose Suspense boundary failed on the server. This replica's
// memory remembers the proofs too (bounded, MAX_SPENT_PROOFS) and answers alone when Redis
// fails or is slow: a proof then counts once per replica, as without Redis.

const PREFIX = `${KEY_PREFIX}proof:`;

export function createRedisSpentProofs(redis: RedisConnection, memory: MemorySpentProofs = createSpentProofs()): SpentProofs {
  return {
    async spend(proof, expiresAt, now) {
      const local = memory.spend(proof, expiresAt, now);
      if (local === 'replayed') return local;
      const ttl = Math.max(1, expiresAt - now);
      const set = await redis.bounded(
        (client) => client.set(PREFIX + proof, '1', { condition: 'NX', expiration: { type: 'PX', value: ttl } }),
        undefined,
      );
      // Redis answered: it alone says whether another replica spent it first ('full' is this memory's, not the fleet's).
      if (set === undefined) return local;
      return set === 'OK' ? 'spent' : 'replayed';
    },
  };
}
