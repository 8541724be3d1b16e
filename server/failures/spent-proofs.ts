// The proofs this replica has already accepted, until they expire: a report's proof counts once
// (server/failures/report-proof.ts). A proof is valid for a bounded window, so a proof only needs
// remembering until its window closes; after that it fails the HMAC check on its own. With
// REDIS_URL the fleet remembers them (server/fleet/redis-spent-proofs.ts), over this memory.

/**
 * How many unexpired proofs a replica remembers. A proof needs a page load whose Suspense
 * boundary failed on the server, and is valid for at most PROOF_WINDOW_MS (10 min); a browser
 * sends at most 10 reports a minute (client-errors.ts). 20,000 is 33 genuine reports a second
 * for ten minutes on one replica, far above an incident's recovered boundaries, in 1.7 MB
 * (measured on Node 20: 87 bytes an entry, a 16-character key and its expiry).
 */
export const MAX_SPENT_PROOFS = 20_000;

export type SpendResult = 'spent' | 'replayed' | 'full';

export interface SpentProofs {
  /** Records `proof` as used until `expiresAt` (epoch ms); says whether it was already. */
  spend(proof: string, expiresAt: number, now: number): SpendResult | Promise<SpendResult>;
}

/** This replica's memory answers at once. */
export interface MemorySpentProofs extends SpentProofs {
  spend(proof: string, expiresAt: number, now: number): SpendResult;
}

export function createSpentProofs(capacity = MAX_SPENT_PROOFS): MemorySpentProofs {
  // Insertion order is close to expiry order (every proof gets the same window), so expired
  // entries are dropped from the front; one that expires out of order waits at most one period.
  const spent = new Map<string, number>();
  const sweep = (now: number) => {
    for (const [proof, expiresAt] of spent) {
      if (expiresAt > now) break;
      spent.delete(proof);
    }
  };
  return {
    spend(proof, expiresAt, now) {
      sweep(now);
      if (spent.has(proof)) return 'replayed';
      // Full: refuse rather than forget an unexpired proof, which would let it count again.
      if (spent.size >= capacity) return 'full';
      spent.set(proof, expiresAt);
      return 'spent';
    },
  };
}
