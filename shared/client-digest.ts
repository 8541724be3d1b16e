// A digest for failures in the browser, so a user can quote one from the client error page.
// The browser holds no secret, so this is a plain 64-bit FNV-1a hash of the same parts the
// server hashes (type, message, stack); the `c-` prefix tells operators which side it came from.

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

export function clientDigest(err: unknown): string {
  const text = err instanceof Error ? `${err.name}\n${err.message}\n${err.stack ?? ''}` : String(err);
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * FNV_PRIME) & MASK_64;
  }
  return `c-${hash.toString(36)}`;
}
