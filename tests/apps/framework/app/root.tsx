import type { ReactNode } from 'react';
import { data, isRouteErrorResponse, Links, Meta, Outlet, redirect, Scripts, ScrollRestoration } from 'react-router';
import { hostOf } from '../../../../shared/host.ts';
import type { Route } from './+types/root';
import appStylesHref from './app.css?url';

// The app's top layout, as React Router's templates write it: a Layout, links(), an action of the
// top route (a POST to `/` reaches it), and an ErrorBoundary that tells a route's error response
// from a thrown error. The notes are kept in the host's database (context); the home page lists
// them. No loader here reads the session: /about is prerendered, the same for every visitor.

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: appStylesHref }];

export async function action({ request, context }: Route.ActionArgs) {
  const { db, session } = hostOf(context);
  const text = String((await request.formData()).get('note') ?? '').trim();
  if (text === '') return data({ error: 'A note needs some text.' }, { status: 422 });
  await db.insertInto('notes').values({ text }).execute();
  session.flash('noted', text);
  return redirect('/');
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
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

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  let message = 'Oops!';
  let details = 'An unexpected error occurred.';
  if (isRouteErrorResponse(error)) {
    message = error.status === 404 ? '404' : 'Error';
    details = error.status === 404 ? 'The requested page could not be found.' : error.statusText || details;
  } else if (error instanceof Error) {
    details = error.message;
  }
  return (
    <main id="error-page">
      <h1>{message}</h1>
      <p>{details}</p>
    </main>
  );
}
