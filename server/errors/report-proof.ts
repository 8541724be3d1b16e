import { createHmac, timingSafeEqual } from 'node:crypto';
import { digestKey } from './digest.ts';

// The proof the server writes beside a digest it hands to React for a page (see
// shared/digest-proof.ts): HMAC-SHA-256 of the digest and the page load's request id, under a
// key derived from DIGEST_KEY, so every replica sharing the key can check any replica's proofs
// and a proof for one page or one digest is worth nothing for another.

const PROOF_BYTES = 12;
const PURPOSE = 'react-ssr-host: browser report proof v1';

export interface ReportProofs {
  sign(digest: string, pageReqId: string): string;
  verify(digest: string, pageReqId: string, proof: string): boolean;
}

export function createReportProofs(key: string | undefined): ReportProofs {
  // A key of its own, so a proof never equals any digest computed under DIGEST_KEY.
  const proofKey = createHmac('sha256', digestKey(key)).update(PURPOSE).digest();
  const sign = (digest: string, pageReqId: string) =>
    createHmac('sha256', proofKey).update(`${digest}\n${pageReqId}`).digest().subarray(0, PROOF_BYTES).toString('base64url');
  return {
    sign,
    verify(digest, pageReqId, proof) {
      const expected = Buffer.from(sign(digest, pageReqId));
      const given = Buffer.from(proof);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
