// The app's root route (React Router framework mode: https://reactrouter.com/explanation/special-files#roottsx):
// the document every page is rendered in, and the boundary of last resort.
import type { ReactNode } from 'react';
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration } from 'react-router';
import { HostErrorBoundary } from '../shared/host.ts';
import type { Route } from './+types/root';
import stylesHref from './styles.css?url';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesHref }];

/**
 * The title of a page that has none of its own: a failure a boundary shows (React Router hands
 * meta the route's `error`), as the host's own error pages are titled. Pages title themselves.
 */
export function meta({ error }: Route.MetaArgs) {
  if (error === undefined) return [{ title: 'react-ssr-host' }];
  return [{ title: isRouteErrorResponse(error) && error.status === 404 ? '404: This page could not be found.' : 'Application error' }];
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* No favicon yet: an empty data URL stops the browser asking for /favicon.ico (a 404). */}
        <link rel="icon" href="data:," />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** A failure no route below caught (a path that matches no route is a 404 here): the host's texts. */
export function ErrorBoundary() {
  return <HostErrorBoundary />;
}
