// The route above every route of the table: the page's <title> and meta, the announcement and
// focus move after a client navigation, and scroll restoration. Its boundary is the root
// fallback, the full error page.
import { use, useEffect, useRef } from 'react';
import {
  Outlet,
  UNSAFE_DataRouterDataContext as DataRouterDataContext,
  UNSAFE_useScrollRestoration as useScrollRestoration,
  useLocation,
  useMatches,
} from 'react-router';
import { LinkTags, linksOf, MetaTags, metaOf, titleOf } from './head-tags.tsx';
import { isNotFound, isRouteFailure } from './route-failure.ts';

/** Where focus goes after a client navigation: the new content, not the link that was clicked. */
export const CONTENT_ID = 'content';

/** The first failure of this page's routes, if any: React Router keeps them in its state (its data context since 8.4, which split the state context). */
function useFailure(): { status: number } | undefined {
  const errors = use(DataRouterDataContext)?.errors;
  if (errors == null) return undefined;
  const error: unknown = Object.values(errors)[0];
  return { status: isRouteFailure(error) || isNotFound(error) ? (error as { status: number }).status : 500 };
}

/** Moves focus to the new content and announces its title, after client navigations only. */
function NavigationAnnouncer({ title }: { title: string }) {
  const location = useLocation();
  // The location this page was loaded or last announced at; effects may run twice (StrictMode).
  const announced = useRef(location.key);
  const region = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (announced.current === location.key) return;
    announced.current = location.key;
    if (region.current) region.current.textContent = title;
    // Scrolling is <ScrollRestoration>'s (top for a new page, the old position on back/forward):
    // moving focus must not scroll.
    document.getElementById(CONTENT_ID)?.focus({ preventScroll: true });
    // The key changes on every navigation, even to the same URL.
  }, [location.key]); // eslint-disable-line react-hooks/exhaustive-deps
  return <p ref={region} className="visually-hidden" aria-live="assertive" aria-atomic="true" data-testid="route-announcer" />;
}

/**
 * React Router's `<ScrollRestoration>` without its framework-mode half: in data mode (no
 * framework context) it runs this hook and renders nothing, and the rest of it, the inline
 * script that restores a reloaded document's scroll for framework mode's server, is code the
 * first load carried for nothing (docs/performance.md, "First-load JavaScript").
 */
function ScrollRestoration() {
  useScrollRestoration();
  return null;
}

export function HostRoot() {
  const matches = useMatches();
  const meta = metaOf(matches, useLocation(), useFailure());
  return (
    <>
      <MetaTags meta={meta} />
      <LinkTags links={linksOf(matches)} />
      <NavigationAnnouncer title={titleOf(meta)} />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
