import type { Route } from './+types/about';

/** A Date here is its ISO string in the page: route data travels as React Router encodes it (docs/forms.md, "Types"). */
export function loader() {
  return { servedAt: new Date().toISOString() };
}

/**
 * Reused for 10 s, then served stale while it is rendered anew (docs/caching.md): `servedAt`
 * shows when the stored page was rendered. The guestbook's writes revalidate the `guestbook`
 * tag, not this one: nothing here shows its entries.
 */
export const cache = { revalidate: 10, tags: ['about'] };

export function meta() {
  return [{ title: 'About' }];
}

export default function About({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h1>About</h1>
      <p>This site is served by react-ssr-host.</p>
      <p className="muted">{`Served at ${loaderData.servedAt}.`}</p>
    </>
  );
}
