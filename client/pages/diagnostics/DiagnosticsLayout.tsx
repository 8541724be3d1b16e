import { Outlet } from 'react-router';
import { CONTENT_ID } from '../../router/HostRoot.tsx';

// Pages that fail on purpose, so an operator can prove the error pipeline after a deploy. The
// server serves them only with DIAGNOSTICS_TOKEN configured and sent (server/diagnostics.ts).

export default function DiagnosticsLayout() {
  return (
    <main id={CONTENT_ID} tabIndex={-1} className="page">
      <p className="muted" data-testid="diag-layout">
        Diagnostics
      </p>
      <Outlet />
    </main>
  );
}
