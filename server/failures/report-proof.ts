import { createHmac, timingSafeEqual } from 'node:crypto';
import { digestKey } from './digest.ts';
import { createSpentProofs, type SpentProofs } from './spent-proofs.ts';

// The proof the server writes beside a digest it hands to React for a page (see
// shared/digest-proof.ts): HMAC-SHA-256 of the digest, the page load's request id and the
// period it was signed in, under a key derived from DIGEST_KEY, so every replica sharing the key
// can check any replica's proofs and a proof for one page or one digest is worth nothing for
// another. The request id is one the server chose (server/observe/access-log.ts), so a client cannot
// line a proof up with an id of its choosing. A proof counts once (per replica, or per fleet
// with REDIS_URL) and only for a bounded window: a replayed or stale one is logged as a claim,
// never as another occurrence.

const PROOF_BYTES = 12;
const PURPOSE = 'react-ssr-host: browser report proof v2';
/**
 * Browsers report a recovered boundary while the page hydrates (onRecoverableError), seconds
 * after it loads; 5 minutes leaves room for a slow network and for clocks a little apart
 * between replicas.
 */
export const PROOF_PERIOD_MS = 5 * 60_000;
/** A proof signed in one period verifies in it and the next: for 5 to 10 minutes. */
const PERIODS_ACCEPTED = 2;
export const PROOF_WINDOW_MS = PERIODS_ACCEPTED * PROOF_PERIOD_MS;

/** verified, or why not: no match (wrong page, digest or key, or too old), used before, or too many spent to remember another. */
export type ProofCheck = 'verified' | 'invalid' | 'replayed' | 'full';

export interface ReportProofs {
  sign(digest: string, pageReqId: string): string;
  /** Checks a report's proof and, when it is good, spends it: the same proof never verifies twice here. */
  check(digest: string, pageReqId: string, proof: string): Promise<ProofCheck>;
}

export interface ReportProofOptions {
  /** Epoch ms; tests move it instead of waiting. */
  now?: () => number;
  spent?: SpentProofs;
}

export function createReportProofs(key: string | undefined, options: ReportProofOptions = {}): ReportProofs {
  const { now = Date.now, spent = createSpentProofs() } = options;
  // A key of its own, so a proof never equals any digest computed under DIGEST_KEY.
  const proofKey = createHmac('sha256', digestKey(key)).update(PURPOSE).digest();
  const signIn = (period: number, digest: string, pageReqId: string) =>
    createHmac('sha256', proofKey).update(`${digest}\n${pageReqId}\n${period}`).digest().subarray(0, PROOF_BYTES).toString('base64url');
  const matches = (expected: string, proof: string) => {
    const given = Buffer.from(proof);
    const wanted = Buffer.from(expected);
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  };
  return {
    sign: (digest, pageReqId) => signIn(Math.floor(now() / PROOF_PERIOD_MS), digest, pageReqId),
    async check(digest, pageReqId, proof) {
      const time = now();
      const current = Math.floor(time / PROOF_PERIOD_MS);
      for (let period = current; period > current - PERIODS_ACCEPTED; period--) {
        if (!matches(signIn(period, digest, pageReqId), proof)) continue;
        const result = await spent.spend(proof, (period + PERIODS_ACCEPTED) * PROOF_PERIOD_MS, time);
        return result === 'spent' ? 'verified' : result;
      }
      return 'invalid';
    },
  };
}
