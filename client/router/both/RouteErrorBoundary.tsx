// What a route boundary shows: the exact texts of the error pages, inside the layouts above it.
// It never logs or reports: the server recorded server failures (the digest here is the one it
// logged), and React's root hooks (client/report-error.tsx) report the browser's own.
import { createContext, createElement, use } from 'react';
import { UNSAFE_RouteContext as RouteContext, useRouteError } from 'react-router';
import type { RouteHandle } from './route-handle.ts';
import { ErrorPage, type ErrorPageProps } from '../../../shared/ErrorPage.tsx';
import { FALLBACK_HOSTNAME, NOT_FOUND_MESSAGE } from '../../../shared/messages.ts';
import { digestOf } from '../../report-error.tsx';
import { isNotFound, isRouteFailure } from './route-failure.ts';

/** The host name the server validated for this request (server/edge/request-origin.ts). */
export const HostnameContext = createContext(FALLBACK_HOSTNAME);

function propsFor(error: unknown, serverHostname: string): ErrorPageProps {
  if (isNotFound(error) || (isRouteFailure(error) && error.status === 404)) {
    return { side: 'http', status: 404, message: NOT_FOUND_MESSAGE };
  }
  if (isRouteFailure(error)) {
    return error.digest === undefined
      ? { side: 'http', status: error.status, message: 'The request could not be completed.' }
      : { side: 'server', hostname: serverHostname, digest: error.digest, detail: error.detail };
  }
  // Anything else was thrown in this browser (a render or an effect).
  const hostname = typeof window === 'undefined' ? serverHostname : window.location.hostname;
  return { side: 'client', hostname, digest: digestOf(error) };
}

/** What an app's ErrorBoundary shows: the status, a 5xx's digest, a 4xx's message the app threw on purpose. */
export interface ShownFailure {
  status: number;
  digest?: string;
  message?: string;
  /** Thrown in this browser (a render or an effect), not by the server. */
  client: boolean;
}

/** For an app's ErrorBoundary: the failure its route caught, as it may be shown. */
export function useRouteFailure(): ShownFailure {
  const error = useRouteError();
  if (isRouteFailure(error)) return { status: error.status, digest: error.digest, message: error.message, client: false };
  if (isNotFound(error)) return { status: 404, client: false };
  return { status: 500, digest: digestOf(error), client: true };
}

/** The host's default for a route's boundary: the error page's texts, inside the layouts above. */
export function DefaultRouteError() {
  const error = useRouteError();
  return <ErrorPage {...propsFor(error, use(HostnameContext))} inline />;
}

/** A route's boundary (`boundary: true` in the route table): its page's own ErrorBoundary, else the host's. */
export function RouteErrorBoundary() {
  const own = (use(RouteContext).matches.at(-1)?.route.handle as RouteHandle | undefined)?.page?.ErrorBoundary;
  return own === undefined ? <DefaultRouteError /> : createElement(own);
}

/** The root fallback: today's full error page, when no route declares a boundary. */
export function RootErrorPage() {
  const error = useRouteError();
  return <ErrorPage {...propsFor(error, use(HostnameContext))} />;
}
