import { Outlet, useLoaderData, useLocation } from 'react-router';
import { CONTENT_ID, Link } from '../host.ts';
import type { SiteData } from './site.server.ts';

/** The site's frame: header and navigation stay while pages change beneath them. */
export default function SiteLayout() {
  const { nav } = useLoaderData<SiteData>();
  const { pathname } = useLocation();
  return (
    <>
      <header className="site-header">
        <Link to="/" className="site-name">
          react-ssr-host
        </Link>
        <nav aria-label="Main">
          {nav.map((item) => {
            const current = item.to === '/' ? pathname === '/' : pathname.startsWith(item.to);
            return (
              <Link key={item.to} to={item.to} aria-current={current ? 'page' : undefined}>
                {item.label}
              </Link>
            );
          })}
        </nav>
      </header>
      <main id={CONTENT_ID} tabIndex={-1} className="page">
        <Outlet />
      </main>
    </>
  );
}
