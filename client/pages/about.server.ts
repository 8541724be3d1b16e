/** A Date here is its ISO string in the page: route data travels as JSON (docs/forms.md, "Types"). */
export function loader() {
  return { servedAt: new Date() };
}

/**
 * Reused for 10 s, then served stale while it is rendered anew (docs/caching.md): `servedAt`
 * shows when the stored page was rendered. The guestbook's writes revalidate the `guestbook`
 * tag, not this one: nothing here shows its entries.
 */
export const cache = { revalidate: 10, tags: ['about'] };
