// A server failure inside a streamed Suspense boundary reaches the browser as a digest: React
// writes the string the server's onError returns into the page ($RX("B:0","…")) and hands it
// to the browser's onRecoverableError as `error.digest`. The server writes the digest and a
// proof beside it, `<digest>.<proof>`: the proof is a keyed hash of the digest and the page
// load's request id, so a browser report that names a server digest can show that this server
// wrote that digest into that page (server/failures/report-proof.ts checks it). The user only ever
// sees the digest part.
//
// For an error boundary: `const server = serverDigestOf(error)`; show `server.digest` (never the
// raw `error.digest`); when reporting, send `digest: server.digest`, `proof: server.proof` and
// the page's request id as `pageReqId` (client/router/error-hooks.tsx does).

/** Not in the base64url alphabet of digests and proofs, so the split is unambiguous. */
export const PROOF_SEPARATOR = '.';

/** A server digest: 16 base64url characters (server/failures/digest.ts). */
export const SERVER_DIGEST = /^[A-Za-z0-9_-]{16}$/;
/** A proof: 16 base64url characters (96 bits). */
export const PROOF = /^[A-Za-z0-9_-]{16}$/;

export interface ServerDigest {
  /** What the user sees and quotes. */
  readonly digest: string;
  /** Sent back with a report; undefined when the page carried none. */
  readonly proof: string | undefined;
}

export function joinDigestProof(digest: string, proof: string): string {
  return `${digest}${PROOF_SEPARATOR}${proof}`;
}

/** The digest and proof of a value React handed over as `error.digest`; undefined if it is not one. */
export function parseServerDigest(value: unknown): ServerDigest | undefined {
  if (typeof value !== 'string') return undefined;
  const [digest = '', proof, ...rest] = value.split(PROOF_SEPARATOR);
  if (rest.length > 0 || !SERVER_DIGEST.test(digest)) return undefined;
  if (proof !== undefined && !PROOF.test(proof)) return undefined;
  return { digest, proof };
}

/** The server digest carried by an error React recovered from, if any. */
export function serverDigestOf(error: unknown): ServerDigest | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  try {
    return parseServerDigest((error as { digest?: unknown }).digest);
  } catch {
    return undefined;
  }
}
