import { data, Link, Outlet, type MiddlewareFunction } from 'react-router';
import { hostOf } from '../../../shared/host.ts';

// Pages that fail on purpose, so an operator can prove the error pipeline after a deploy. The
// server serves them only with DIAGNOSTICS_TOKEN configured and sent (server/pages/diagnostics.ts
// decides it per request; the middleware below reads it as `hostOf(context).diagnostics`).

/** Not prefetched: a prefetch of a failing loader would log a failure nobody asked for. */
const PAGES = [
  ['/_diag/links', 'Links'],
  ['/_diag/loader-error', 'Loader error'],
  ['/_diag/slow-loader?ms=500', 'Slow loader'],
] as const;

/** Without the token they do not exist: the site's ordinary 404, and no loader below runs. */
export const middleware: MiddlewareFunction<Response>[] = [
  ({ context }) => {
    if (!hostOf(context).diagnostics) throw data(null, { status: 404 });
  },
];

export function meta() {
  return [{ title: 'Diagnostics' }, { name: 'robots', content: 'noindex' }];
}

export default function DiagnosticsLayout() {
  return (
    <main id="content" tabIndex={-1} className="page">
      <nav aria-label="Diagnostics" className="tabs" data-testid="diag-layout">
        {PAGES.map(([to, label]) => (
          <Link key={to} to={to} prefetch="none">
            {label}
          </Link>
        ))}
      </nav>
      <Outlet />
    </main>
  );
}
