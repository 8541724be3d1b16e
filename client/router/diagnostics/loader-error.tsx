import { HostErrorBoundary } from '../../../shared/host.ts';
import { LoaderMessage } from './loader-message.tsx';

/** Fails in the loader: the route's boundary shows the digest, the layout above stays. */
export function loader(): never {
  throw new Error('Diagnostic loader error: the loader threw');
}

export default function LoaderError() {
  return <LoaderMessage message={undefined} />;
}

export function ErrorBoundary() {
  return <HostErrorBoundary inline />;
}
