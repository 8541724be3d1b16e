// What a route boundary shows: the exact texts of the error pages, inside the layouts above it.
// It never logs or reports: the server recorded server failures (the digest here is the one it
// logged), and React's root hooks (client/report-error.tsx) report the browser's own.
import { createContext, use } from 'react';
import { useRouteError } from 'react-router';
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

/** A route's boundary (`boundary: true` in the route table). */
export function RouteErrorBoundary() {
  const error = useRouteError();
  return <ErrorPage {...propsFor(error, use(HostnameContext))} inline />;
}

/** The root fallback: today's full error page, when no route declares a boundary. */
export function RootErrorPage() {
  const error = useRouteError();
  return <ErrorPage {...propsFor(error, use(HostnameContext))} />;
}
