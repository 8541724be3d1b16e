import { data } from 'react-router';
import { hostOf } from '../../../../../shared/host.ts';
import type { Route } from './+types/cached';

// A page the host may store (docs/caching.md): it shows which render it is and for whom. Also
// at /cached/items/:id (one page per value). `cachedFixture` counts renders and switches failures.

/**
 * How often the loader ran, and whether it fails now: what the cache tests count and switch.
 * Exported from the route module, so tests reach the host's copy through the build
 * (tests/support/fixture-state.ts); the browser's copy is never read.
 */
export const cachedFixture = { renders: 0, fail: false, gone: false, hold: undefined as Promise<void> | undefined };

export const cache = { revalidate: 10, tags: ['cached-fixture'] };

/**
 * `?session` reads the visitor's name from the session (never stored); otherwise nothing of the
 * visitor. `?etag` gives the page a validator of its own, the render's number. `?say=` is text
 * the page shows as content, as a guestbook shows a message. While `hold` is set, a render waits
 * for it once counted: a regeneration kept in flight while a test sends requests.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  cachedFixture.renders += 1;
  if (cachedFixture.hold) await cachedFixture.hold;
  if (cachedFixture.fail) throw new Error('The cached fixture failed while it was rendered anew');
  if (cachedFixture.gone) throw data(null, { status: 404 });
  const query = new URL(request.url).searchParams;
  const who = query.has('session') ? (hostOf(context).session.get('user') ?? 'nobody') : 'anyone';
  const page = { renders: cachedFixture.renders, who: String(who), said: query.get('say') ?? '' };
  return query.has('etag') ? data(page, { headers: { ETag: `"render-${page.renders}"` } }) : page;
}

/** The loader's validator on the document too: React Router sends a loader's headers only through this export. */
export function headers({ loaderHeaders }: Route.HeadersArgs): HeadersInit {
  const etag = loaderHeaders.get('ETag');
  return etag === null ? {} : { ETag: etag };
}

/** Signs in by name (the session) and revalidates the fixture's tag: the next read renders anew. */
export async function action({ request, context }: Route.ActionArgs) {
  const host = hostOf(context);
  const name = (await request.formData()).get('name');
  host.session.set('user', typeof name === 'string' ? name : '');
  return { dropped: await host.revalidate({ tag: 'cached-fixture' }) };
}

export default function Cached({ loaderData }: Route.ComponentProps) {
  const { renders, who, said } = loaderData;
  return (
    <>
      <p data-testid="cached">
        render {renders} for {who}
      </p>
      {said !== '' && <p data-testid="said">{said}</p>}
    </>
  );
}
