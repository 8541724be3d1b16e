// The route above every route of the table: the page's <title> and meta, the announcement and
// focus move after a client navigation, and scroll restoration. Its boundary is the root
// fallback, the full error page.
import { use, useEffect, useRef } from 'react';
import {
  Outlet,
  ScrollRestoration,
  UNSAFE_DataRouterDataContext as DataRouterDataContext,
  useLocation,
  useMatches,
  type UIMatch,
} from 'react-router';
import { NOT_FOUND_MESSAGE } from '../../../shared/messages.ts';
import { isNotFound, isRouteFailure } from './route-failure.ts';
import type { RouteMeta, ServerModule } from './route-entry.ts';

export interface RouteHandle {
  meta?: RouteEntryMeta;
  diagnostics?: boolean;
  /** The page module's source path, when the build tagged it. */
  src?: string;
  /** The route's `*.server.ts` module (a stub that rejects, in the browser). */
  server?: () => Promise<ServerModule>;
  /** No page: the loader's or action's Response is the answer. */
  resource: boolean;
  /** Its failures show in its own boundary (the table's `boundary`). */
  boundary?: boolean;
  /** The browser's: loads the page's code and fetches its stylesheets without applying them (a prefetch). */
  preload?: () => Promise<unknown>;
}
type RouteEntryMeta = RouteMeta | ((data: never) => RouteMeta);

/** Used when no matched route sets a title. */
export const DEFAULT_TITLE = 'react-ssr-host';
/** Where focus goes after a client navigation: the new content, not the link that was clicked. */
export const CONTENT_ID = 'content';

/** The deepest matched route's meta; a page with a failed route is never indexed. */
export function metaOf(matches: readonly UIMatch[], failure: { status: number } | undefined): RouteMeta {
  let meta: RouteMeta = { title: DEFAULT_TITLE };
  for (const match of matches) {
    const entry = (match.handle as RouteHandle | undefined)?.meta;
    if (entry === undefined) continue;
    if (typeof entry !== 'function') meta = entry;
    // A failed route has no data to make its meta from: the one above it stays.
    else if (match.loaderData !== undefined) meta = entry(match.loaderData as never);
  }
  if (failure === undefined) return meta;
  const title = failure.status === 404 ? `404: ${NOT_FOUND_MESSAGE}` : 'Application error';
  return { title, robots: 'noindex' };
}

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

export function HostRoot() {
  const meta = metaOf(useMatches(), useFailure());
  return (
    <>
      <title>{meta.title}</title>
      {meta.description !== undefined && <meta name="description" content={meta.description} />}
      {meta.robots !== undefined && <meta name="robots" content={meta.robots} />}
      <NavigationAnnouncer title={meta.title} />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
