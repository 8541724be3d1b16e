import { HostErrorBoundary } from '../../../../../shared/host.ts';

// A loader that throws under a route boundary: the error page inside a boundary, rendered in the
// root's document with the failure's digest (on the floor, React Router's "Unexpected Server Error").

export function loader(): never {
  throw new Error('bench: the loader threw on purpose');
}

export default function Boom() {
  return <h1>Never rendered</h1>;
}

export function ErrorBoundary() {
  return <HostErrorBoundary inline />;
}
