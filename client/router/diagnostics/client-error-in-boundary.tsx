import { HostErrorBoundary } from '../../../shared/host.ts';

// The same page as ./client-error.tsx, with a boundary of its own: the client-side texts show
// inside the diagnostics layout, which stays.
export { default } from './client-error.tsx';

export function ErrorBoundary() {
  return <HostErrorBoundary inline />;
}
