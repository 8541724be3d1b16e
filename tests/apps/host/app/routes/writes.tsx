import type { Route } from './+types/writes';
import { HostErrorBoundary } from '../../../../../shared/host.ts';

// The writes page: what its loader and action returned, and a boundary of its own.
export { action, loader } from '../writes.server.ts';

/** A loader's own Cache-Control on the answer (`?do=own-cache-control`): React Router sends a loader's headers only through this export. */
export function headers({ loaderHeaders }: Route.HeadersArgs): HeadersInit {
  const cacheControl = loaderHeaders.get('Cache-Control');
  return cacheControl === null ? {} : { 'Cache-Control': cacheControl };
}

export default function Writes({ loaderData, actionData }: Route.ComponentProps) {
  return <pre data-testid="writes">{JSON.stringify({ loaded: loaderData, acted: actionData })}</pre>;
}

export function ErrorBoundary() {
  return <HostErrorBoundary inline />;
}
