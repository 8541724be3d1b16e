import { Component, type ReactNode } from 'react';
import { clientDigest } from '../shared/client-digest.ts';
import { ErrorPage } from '../shared/ErrorPage.tsx';
import { FALLBACK_HOSTNAME } from '../shared/messages.ts';

interface State {
  error: unknown;
  hasError: boolean;
}

/**
 * The root boundary: shows the client-side error page. It does not log or report; React hands
 * the caught error to `onCaughtError` on the root (entry-client.tsx), so it is reported once.
 */
export class RootErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: undefined, hasError: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, hasError: true };
  }

  override render() {
    if (!this.state.hasError) return this.props.children;
    const hostname = typeof window === 'undefined' ? FALLBACK_HOSTNAME : window.location.hostname;
    return <ErrorPage side="client" hostname={hostname} digest={clientDigest(this.state.error)} />;
  }
}
