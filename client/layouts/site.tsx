import { Link, Outlet, useLocation } from 'react-router';
import { HostErrorBoundary, NavigationAnnouncer } from '../../shared/host.ts';
import { CONTENT_ID, NAV } from './nav.ts';

/** The header and its navigation: on every page, and around a failure shown by the site's boundary. */
function SiteHeader() {
  const { pathname } = useLocation();
  return (
    <header className="site-header">
      <Link to="/" className="site-name" prefetch="intent">
        react-ssr-host
      </Link>
      <nav aria-label="Main">
        {NAV.map((item) => {
          const current = item.to === '/' ? pathname === '/' : pathname.startsWith(item.to);
          return (
            <Link key={item.to} to={item.to} prefetch="intent" aria-current={current ? 'page' : undefined}>
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
  return (
    <>
      <SiteHeader />
      <NavigationAnnouncer contentId={CONTENT_ID} />
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
        <HostErrorBoundary inline />
        <p className="error-home">
          <Link to="/" reloadDocument>
            Go to the home page
          </Link>
        </p>
      </main>
    </>
  );
}
