import { createContext, use } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { clientDigest } from './client-digest.ts';
import { serverDigestOf } from './digest-proof.ts';
import { ErrorPage } from './ErrorPage.tsx';
import { FALLBACK_HOSTNAME, NOT_FOUND_MESSAGE } from './messages.ts';
import { RUNTIME_GLOBAL, type RuntimeConfig } from './runtime.ts';

// What an ErrorBoundary shows of a failure: its status, a 5xx's digest, a 4xx's message the app
// threw on purpose. React Router hands a boundary `error` (https://reactrouter.com/how-to/error-boundary);
// for a server failure in production that is a bare "Unexpected Server Error" with nothing
// attached, so the host answers a failure as React Router answers a thrown `data()`: an
// ErrorResponse with status 500 whose data is `{ message, digest, proof }` (server/render/host-build.ts).
// The same error reaches the boundary in the server's HTML, in the hydration data and in a
// navigation's `.data`, so one hook reads it everywhere: useFailure().

/** What the host puts in a server failure's ErrorResponse (server/render/host-build.ts). */
export interface FailureData {
  message: 'Unexpected Server Error';
  digest: string;
  /** The server's proof that it gave this page this digest (shared/digest-proof.ts), sent back with a browser report. */
  proof?: string;
  /** Development only: the failure's message and stack (the server never sends it in production). */
  detail?: string;
}

export function isFailureData(value: unknown): value is FailureData {
  return typeof value === 'object' && value !== null && typeof (value as { digest?: unknown }).digest === 'string';
}

export interface ShownFailure {
  status: number;
  /** A server failure's (5xx) digest, or one made in the browser for a failure there. */
  digest?: string;
  /** What a 4xx the app threw says (`throw data('No such entry', { status: 404 })`); never a 5xx's. */
  message?: string;
  /** Thrown in this browser (a render after hydration, a clientLoader), not by the server. */
  client: boolean;
  /** Development only: a server failure's message and stack. */
  detail?: string;
}

/** The failure a boundary shows, from `error` (a boundary's `error` prop, or useRouteError()). */
export function failureOf(error: unknown): ShownFailure {
  if (isRouteErrorResponse(error)) {
    const status = error.status;
    const data: unknown = error.data;
    if (isFailureData(data)) {
      const detail = typeof data.detail === 'string' ? data.detail : undefined;
      return { status, digest: data.digest, client: false, ...(detail !== undefined && { detail }) };
    }
    return { status, message: status < 500 && typeof data === 'string' && data !== '' ? data : undefined, client: false };
  }
  // A failure in a streamed section the browser recovered carries the server's digest (React's error.digest).
  const server = serverDigestOf(error);
  if (server !== undefined) return { status: 500, digest: server.digest, client: false };
  return { status: 500, digest: clientDigest(error), client: true };
}

/** For an app's ErrorBoundary: the failure its route caught, as it may be shown. */
export function useFailure(): ShownFailure {
  return failureOf(useRouteError());
}

declare global {
  interface Window {
    [RUNTIME_GLOBAL]?: RuntimeConfig;
  }
}

/** On the server, the host name the request was validated for (server/edge/request-origin.ts): the host's entry provides it (server/render/document.tsx). */
export const HostnameContext = createContext<string | undefined>(undefined);

/**
 * The host name the error texts name: in the browser the one the server wrote into the page
 * (shared/runtime.ts), so hydration shows what the server did, or the browser's own where there
 * is none (a prerendered page); on the server the one its entry provides.
 */
export function useHostname(): string {
  const server = use(HostnameContext);
  if (typeof window === 'undefined') return server ?? FALLBACK_HOSTNAME;
  return window[RUNTIME_GLOBAL]?.hostname || window.location.hostname;
}

/** The host's texts for a failure: the 404 page's, a 4xx's status, or the digest page of either side. */
export function HostErrorBoundary({ inline = false }: { inline?: boolean }) {
  const failure = useFailure();
  const hostname = useHostname();
  if (failure.status === 404) return <ErrorPage side="http" status={404} message={NOT_FOUND_MESSAGE} inline={inline} />;
  if (failure.digest === undefined) {
    return (
      <ErrorPage side="http" status={failure.status} message={failure.message ?? 'The request could not be completed.'} inline={inline} />
    );
  }
  if (failure.client) return <ErrorPage side="client" hostname={hostname} digest={failure.digest} inline={inline} />;
  return <ErrorPage side="server" hostname={hostname} digest={failure.digest} detail={failure.detail} inline={inline} />;
}
