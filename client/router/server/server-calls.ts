// How the server's React Router routes call a route's `*.server.ts` module (../both/route-entry.ts):
// the loader or action gets the request, its params, the host's context and the deadline's
// signal; the headers it sets (on `data()`, on a Response, on a redirect) are collected for the
// response, since React Router keeps only `Location` of an action's redirect.
import {
  createContext,
  data,
  RouterContextProvider,
  UNSAFE_ErrorResponseImpl as ErrorResponse,
  type ActionFunction,
  type LoaderFunction,
  type MiddlewareFunction,
} from 'react-router';
import type { PageRequest, RequestContext } from '../../../shared/page-seam.ts';
import { handleDeferred } from './deferred-server.tsx';
import type { LoaderFor, MiddlewareFor } from '../both/react-router-routes.ts';
import { serverMiddleware } from './server-middleware.ts';
import type { HostContext, LoaderArgs, ServerModule } from '../both/route-module.ts';
import { noteBodyLimits } from './form-data.ts';

/** What the static handler passes every loader and action (`requestContext`). */
export interface CallContext {
  signal: AbortSignal;
  context: RequestContext;
  /** The headers the route modules set, for the response. */
  headers: Headers;
}

export function callContext(request: PageRequest): CallContext {
  return { signal: request.signal, context: request.context, headers: new Headers() };
}

/** The host's values in a loader's or action's `context`, by key (React Router 8's typed context). */
const CALLS = createContext<CallContext>();

/**
 * The `requestContext` of query() and queryRoute(): since React Router 8 the `context` a loader
 * gets is always a RouterContextProvider (its CHANGELOG, 8.0.0), read by key. The host's values
 * are its properties too (`context.session`, `context.log`: a getter, so copied as one), so
 * middleware, loaders and actions reach them and what middleware `set()` through the same object.
 */
export function routerContext(calls: CallContext): HostContext {
  const provider = new RouterContextProvider(new Map([[CALLS, calls]]));
  return Object.defineProperties(provider, Object.getOwnPropertyDescriptors(calls.context)) as HostContext;
}

/** The response's own: a route module does not set these. */
export const HOST_HEADERS = new Set(['content-type', 'content-length', 'transfer-encoding', 'connection', 'location', 'set-cookie']);

/** Keeps the headers of what a loader or action returned or threw: every cookie, the last of any other. */
function collectHeaders(into: Headers, value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  const init = value as { type?: unknown; init?: ResponseInit | null };
  const headers = value instanceof Response ? value.headers : init.type === 'DataWithResponseInit' ? new Headers(init.init?.headers) : null;
  if (headers === null) return;
  for (const [name, header] of headers) if (!HOST_HEADERS.has(name)) into.set(name, header);
  for (const cookie of headers.getSetCookie()) into.append('set-cookie', cookie);
}

/**
 * A thrown `data(value, { status })` (what notFound() throws) as the error React Router makes of
 * it for a page; for a resource route it would make a Response of it instead, and the host's
 * JSON error (with its 404 text) would be lost.
 */
function asErrorResponse(thrown: unknown): unknown {
  const init = thrown as { type?: unknown; data?: unknown; init?: ResponseInit | null } | null;
  if (init?.type !== 'DataWithResponseInit' || (init.init?.status ?? 0) < 400) return thrown;
  return new ErrorResponse(init.init!.status!, init.init?.statusText, init.data);
}

function call(name: 'loader' | 'action', load: () => Promise<ServerModule>) {
  return async ({ params, request, context }: Parameters<LoaderFunction>[0]) => {
    const calls = context.get(CALLS);
    const handler = (await load())[name];
    // A module with only an action has no data for its page; one without an action takes no writes.
    if (handler === undefined) {
      if (name === 'loader') return null;
      throw data(null, { status: 405 });
    }
    try {
      const args: LoaderArgs = { params, request, signal: calls.signal, context: context as HostContext };
      const result = await handler(args as never);
      collectHeaders(calls.headers, result);
      handleDeferred(result);
      return result;
    } catch (thrown) {
      collectHeaders(calls.headers, thrown);
      throw asErrorResponse(thrown);
    }
  };
}

export const serverLoader: LoaderFor = (entry) => call('loader', entry.server) satisfies LoaderFunction;
export const serverAction: LoaderFor = (entry) => call('action', entry.server) satisfies ActionFunction;
export const serverMiddlewareFor: MiddlewareFor = (entry) => serverMiddleware(entry.server) as MiddlewareFunction;

/** The request as loaders and actions see it: URL, method, headers and the body as sent; its signal goes apart (page-seam.ts). */
export function fetchRequest(request: PageRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const init: RequestInit = { method: request.method, headers };
  if (request.body !== null) {
    // The bytes were read whole (server/writes/request-body.ts): the Request knows their length, and
    // the host accepted only an identity coding.
    for (const name of ['content-length', 'content-encoding', 'transfer-encoding']) headers.delete(name);
    headers.set('content-type', request.body.type);
    init.body = request.body.bytes;
  }
  const fetched = new Request(request.url, init);
  // The action's parseFormData holds each file to the limit the host held the body to.
  if (request.body !== null) noteBodyLimits(fetched, request.body.limits);
  // Shadows the prototype's getter on this one object: what loaders read of it is noted.
  if (request.headerReads !== undefined)
    Object.defineProperty(fetched, 'headers', { value: watchHeaders(fetched.headers, request.headerReads) });
  return fetched;
}

/** Header methods that read one header by name; anything else that reads (a walk, `entries`) reads them all. */
const BY_NAME = new Set<PropertyKey>(['get', 'has', 'getSetCookie']);
const WALKS = new Set<PropertyKey>(['entries', 'keys', 'values', 'forEach', Symbol.iterator]);

/**
 * The request's headers, noting each name a loader or middleware reads (`*` for a walk over them
 * all): a stored page varies by what it read (server/pages/page-cache.ts).
 */
function watchHeaders(headers: Headers, reads: Set<string>): Headers {
  return new Proxy(headers, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        if (BY_NAME.has(key)) reads.add(key === 'getSetCookie' ? 'set-cookie' : String(args[0]).toLowerCase());
        else if (WALKS.has(key)) reads.add('*');
        return method.apply(target, args);
      };
    },
  });
}

/**
 * The loader phase, until the host's render signal fires (shared/page-seam.ts): a loader that
 * ignores its own signal cannot hold the request, and nothing after it runs once the host has
 * answered without it.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A loader's or action's Response: only redirects have a meaning for a page. */
export function redirectOf(response: Response, headers: Headers) {
  const location = response.headers.get('Location');
  if (response.status < 300 || response.status >= 400 || location === null) {
    throw new Error(`A route returned a ${response.status} response that is not a redirect`);
  }
  return { type: 'redirect' as const, status: response.status, location, headers };
}

/** A Response that ended a page's request (a middleware's, or a loader's redirect): followed, or sent as it is. */
export function answerOf(response: Response, headers: Headers) {
  if (response.status >= 300 && response.status < 400 && response.headers.has('Location')) return redirectOf(response, headers);
  return { type: 'resource' as const, response, headers };
}

/** A resource route's answer: its Response, or its data as JSON (with `data()`'s status and headers). */
export function asResponse(value: unknown): Response {
  if (value instanceof Response) return value;
  const init = value as { type?: unknown; data?: unknown; init?: ResponseInit | null } | null;
  if (init?.type === 'DataWithResponseInit') return Response.json(init.data ?? null, init.init ?? undefined);
  return Response.json(value ?? null);
}
