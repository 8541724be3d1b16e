import { Outlet, useLoaderData, useLocation } from 'react-router';
import { CONTENT_ID, DefaultRouteError, Link } from '../host.ts';
import { NAV } from './nav.ts';
import type { SiteData } from './site.server.ts';

/** The header and its navigation: on every page, and around a failure shown by the site's boundary. */
function SiteHeader() {
  const { pathname } = useLocation();
  return (
    <header className="site-header">
      <Link to="/" className="site-name">
        react-ssr-host
      </Link>
      <nav aria-label="Main">
        {NAV.map((item) => {
          const current = item.to === '/' ? pathname === '/' : pathname.startsWith(item.to);
          return (
            <Link key={item.to} to={item.to} aria-current={current ? 'page' : undefined}>
              {item.label}
            </Link>
          );
        })}
      </nav>
    </header>
  );
}

/** The site's frame: header and navigation stay while pages change beneath them. */
export default function SiteLayout() {
  // The layout's data is loaded once per request and shared by every page under it.
  useLoaderData<SiteData>();
  return (
    <>
      <SiteHeader />
      <main id={CONTENT_ID} tabIndex={-1} className="page">
        <Outlet />
      </main>
    </>
  );
}

/**
 * A failure of a page without a boundary of its own shows here, inside the site's frame: the
 * header, the host's error texts and digest, and a way home.
 */
export function ErrorBoundary() {
  return (
    <>
      <SiteHeader />
      <main id={CONTENT_ID} tabIndex={-1} className="page">
        <DefaultRouteError />
        <p className="error-home">
          <Link to="/" reloadDocument>
            Go to the home page
          </Link>
        </p>
      </main>
    </>
  );
}
