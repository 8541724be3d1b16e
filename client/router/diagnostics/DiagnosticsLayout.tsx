import { Outlet } from 'react-router';
import { CONTENT_ID, Link } from '../../host.ts';

// Pages that fail on purpose, so an operator can prove the error pipeline after a deploy. The
// server serves them only with DIAGNOSTICS_TOKEN configured and sent (server/pages/diagnostics.ts).

/** Not prefetched: a prefetch of a failing loader would log a failure nobody asked for. */
const PAGES = [
  ['/_diag/links', 'Links'],
  ['/_diag/loader-error', 'Loader error'],
  ['/_diag/slow-loader?ms=500', 'Slow loader'],
] as const;

export default function DiagnosticsLayout() {
  return (
    <main id={CONTENT_ID} tabIndex={-1} className="page">
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
