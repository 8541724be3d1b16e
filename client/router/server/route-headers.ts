// A route module's `headers` export, merged parent to child as React Router's framework mode
// merges them (getDocumentHeadersImpl in React Router's source,
// https://github.com/remix-run/react-router/blob/main/packages/react-router/lib/server-runtime/headers.ts): each
// route's function gets its parent's headers, its loader's and action's, and the failure's
// at the boundary; cookies are always kept. Where no matched route exports `headers`, the host's
// rule stands: every header a loader or action set reaches the answer (server-calls.ts), which
// framework mode would drop without a `headers` export.
import type { RouteMatch, StaticHandlerContext } from 'react-router';
import type { ServerModule } from '../both/route-module.ts';
import { HOST_HEADERS } from './server-calls.ts';

/** Adds each of `from`'s cookies that `to` does not have yet. */
function keepCookies(from: Headers, to: Headers): void {
  const present = new Set(to.getSetCookie());
  for (const cookie of from.getSetCookie()) if (!present.has(cookie)) to.append('set-cookie', cookie);
}

/** The headers of the route at the boundary that failed (its action's or its loader's). */
function errorHeadersOf(context: StaticHandlerContext, matches: readonly RouteMatch[]): Headers | undefined {
  const errors = context.errors;
  const at = errors == null ? -1 : matches.findIndex((m) => errors[m.route.id!] !== undefined);
  if (at === -1) return undefined;
  for (const { route } of matches.slice(at)) {
    const id = route.id!;
    if (context.actionHeaders[id] && !(context.actionData && id in context.actionData)) return context.actionHeaders[id];
    if (context.loaderHeaders[id] && !(id in context.loaderData)) return context.loaderHeaders[id];
  }
  return undefined;
}

/**
 * The answer's headers for a page or its data: `collected` is the host's own rule (every route's
 * headers), `fromMiddleware` what middleware set on the Response next() gave them, set last.
 */
export function routeHeaders(
  matches: readonly RouteMatch[],
  modules: readonly (ServerModule | undefined)[],
  context: StaticHandlerContext,
  collected: Headers,
  fromMiddleware: Headers,
): Headers {
  if (!modules.some((module) => module?.headers !== undefined)) return withMiddleware(collected, fromMiddleware);
  const errorHeaders = errorHeadersOf(context, matches);
  const failedAt = context.errors == null ? -1 : matches.findIndex((m) => context.errors![m.route.id!] !== undefined);
  const shown = failedAt === -1 ? matches : matches.slice(0, failedAt + 1);
  const merged = shown.reduce((parentHeaders, match, i) => {
    const id = match.route.id!;
    const loaderHeaders = context.loaderHeaders[id] ?? new Headers();
    const actionHeaders = context.actionHeaders[id] ?? new Headers();
    const own = modules[i]?.headers;
    const atBoundary = errorHeaders !== undefined && i === shown.length - 1;
    let headers: Headers;
    if (own === undefined) {
      headers = new Headers(parentHeaders);
      for (const from of [actionHeaders, loaderHeaders])
        for (const [name, value] of from) if (name !== 'set-cookie') headers.set(name, value);
    } else {
      const args = { loaderHeaders, parentHeaders, actionHeaders, errorHeaders: atBoundary ? errorHeaders : undefined };
      headers = new Headers(typeof own === 'function' ? own(args) : own);
      keepCookies(parentHeaders, headers);
    }
    if (atBoundary && errorHeaders !== loaderHeaders && errorHeaders !== actionHeaders) keepCookies(errorHeaders, headers);
    keepCookies(actionHeaders, headers);
    keepCookies(loaderHeaders, headers);
    return headers;
  }, new Headers());
  for (const name of HOST_HEADERS) if (name !== 'set-cookie') merged.delete(name);
  // Cookies set by a route below the boundary, whose headers are not merged, are still sent.
  keepCookies(collected, merged);
  return withMiddleware(merged, fromMiddleware);
}

function withMiddleware(headers: Headers, fromMiddleware: Headers): Headers {
  for (const [name, value] of fromMiddleware) {
    if (name === 'set-cookie') continue;
    if (!HOST_HEADERS.has(name)) headers.set(name, value);
  }
  keepCookies(fromMiddleware, headers);
  return headers;
}
