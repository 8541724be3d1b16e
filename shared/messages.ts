// The exact user-facing strings (docs/reference-facts.md). Tests and the CLI match on them: change with care.

export function serverErrorMessage(hostname: string): string {
  return `Application error: a server-side exception has occurred while loading ${hostname} (see the server logs for more information).`;
}

export function clientErrorMessage(hostname: string): string {
  return `Application error: a client-side exception has occurred while loading ${hostname} (see the browser console for more information).`;
}

export const DIGEST_LABEL = 'Digest';

/** When the request's host name is not a valid one and none is configured. */
export const FALLBACK_HOSTNAME = 'this site';

/** The 404 page's text: the same for an unknown path, a loader's notFound() and refused diagnostics. */
export const NOT_FOUND_MESSAGE = 'This page could not be found.';
