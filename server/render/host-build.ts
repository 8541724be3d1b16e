import { STATUS_CODES } from 'node:http';
import { data, isRouteErrorResponse, type HandleErrorFunction, type ServerBuild, type ServerEntryModule } from 'react-router';
import type { FailureData } from '../../shared/host-boundary.tsx';
import { parseServerDigest } from '../../shared/digest-proof.ts';
import type { Recorded } from '../failures/recorder.ts';
import { renderOf, type RenderContext } from './render-context.ts';
import { withRuntimeScript } from './runtime-script.ts';
import { StreamTimeoutError } from '../failures/errors.ts';
import { isInstance } from '../failures/thrown-value.ts';

// The app's build as the host runs it: React Router's ServerBuild with the host composed in at
// run time, whatever entries the app has of its own (docs/architecture.md, "The failure contract").
//
// React Router sends a boundary a thrown Error as a bare "Unexpected Server Error" with nothing
// attached (its sanitizeError), and a thrown string, object or null as it is. So every value a
// loader, action or middleware throws that is not one of React Router's own answers is recorded
// here, once (status → digest → one line → Sentry: server/failures/recorder.ts), and thrown on as
// React Router's `data()` of the host's failure shape (shared/host-boundary.tsx), which reaches
// the boundary the same in the HTML, the hydration data and a navigation's `.data`. A render
// that fails before the shell is answered the same way (React Router renders the boundary with it).

type Handler = (this: unknown, args: { context?: unknown }, ...rest: unknown[]) => unknown;

/** What the host made of a failure: handleError skips them (they are recorded already). */
const ours = new WeakSet<object>();

/** React Router's own answers, never failures: a Response (a redirect, a resource's own), an ErrorResponse, `data()` with its init. */
function isIntended(thrown: unknown): boolean {
  if (thrown instanceof Response || isRouteErrorResponse(thrown)) return true;
  return typeof thrown === 'object' && thrown !== null && (thrown as { type?: unknown }).type === 'DataWithResponseInit';
}

/** Why a 4xx React Router answers refused the request (a thrown `data()`, Response or error response): its text, or its status's. */
function rejectionOf(thrown: unknown): string | undefined {
  const answer = thrown as {
    status?: unknown;
    statusText?: unknown;
    data?: unknown;
    init?: { status?: unknown; statusText?: unknown } | null;
  };
  const status = thrown instanceof Response || isRouteErrorResponse(thrown) ? answer.status : answer.init?.status;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  const text = thrown instanceof Response ? undefined : answer.data;
  const statusText = thrown instanceof Response || isRouteErrorResponse(thrown) ? answer.statusText : answer.init?.statusText;
  if (typeof text === 'string' && text !== '') return text;
  return typeof statusText === 'string' && statusText !== '' ? statusText : (STATUS_CODES[status] ?? String(status));
}

/** What a 4xx the app threw on purpose may say (finalhandler's `expose`), never a 5xx's. */
function exposed(error: unknown): string | null {
  const { expose, message } = (error ?? {}) as { expose?: unknown; message?: unknown };
  return expose === true && typeof message === 'string' ? message : null;
}

/** The failure's shape for its boundary: status and digest (5xx), or a 4xx and what it may say. */
function failurePayload(recorded: Recorded, error: unknown): FailureData | string | null {
  if (recorded.digest === undefined) return exposed(error);
  const { proof } = parseServerDigest(recorded.pageDigest) ?? {};
  return { message: 'Unexpected Server Error', digest: recorded.digest, ...(proof !== undefined && { proof }) };
}

function failureData(render: RenderContext, error: unknown, where: 'loader' | 'render') {
  const recorded = render.record(error, where);
  const answer = data(failurePayload(recorded, error), { status: recorded.status });
  ours.add(answer);
  return answer;
}

/** Header methods that read one header by name; any other method that reads reads them all. */
const READ_ONE = new Set<PropertyKey>(['get', 'has', 'getSetCookie']);
const READ_ALL = new Set<PropertyKey>(['entries', 'keys', 'values', 'forEach', Symbol.iterator]);

/**
 * The request as the app's handler sees it, its headers noting which it read: a page that read
 * the Cookie or Authorization header is one client's, and one stored per value of what it read
 * (server/pages/cache-capture.ts). Methods are bound to the real objects (a Request's own
 * methods refuse another receiver).
 */
function watchedRequest(request: Request, reads: Set<string>): Request {
  const headers = new Proxy(request.headers, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (READ_ALL.has(key)) reads.add('*');
      const method = value as (...args: unknown[]) => unknown;
      if (!READ_ONE.has(key)) return method.bind(target);
      return (name: string) => (reads.add(key === 'getSetCookie' ? 'set-cookie' : String(name).toLowerCase()), method.call(target, name));
    },
  });
  return new Proxy(request, {
    get(target, key) {
      if (key === 'headers') return headers;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** A loader, action or middleware of the app, with its failures recorded and thrown on in the host's shape; its redirects checked. */
function wrapHandler(handler: Handler): Handler {
  return async function host(this: unknown, args, ...rest) {
    const render = renderOf(args.context as never);
    if (render === undefined) return handler.call(this, args, ...rest);
    const request = (args as { request?: Request }).request;
    const seen =
      render.headerReads !== undefined && request !== undefined ? { ...args, request: watchedRequest(request, render.headerReads) } : args;
    let value: unknown;
    let threw = false;
    try {
      value = await handler.call(this, seen, ...rest);
    } catch (thrown) {
      if (!isIntended(thrown)) throw failureData(render, thrown, 'loader');
      [value, threw] = [thrown, true];
      const reason = rejectionOf(thrown);
      if (reason !== undefined) render.rejected(reason);
    }
    refuseRedirectElsewhere(render, value);
    if (threw) throw value;
    return value;
  };
}

/**
 * A redirect the browser would follow to another origin is refused (CrossOriginRedirectError,
 * server/failures/errors.ts): one failure with one digest, thrown in the host's shape.
 */
function refuseRedirectElsewhere(render: RenderContext, value: unknown): void {
  if (!(value instanceof Response) || value.status < 300 || value.status >= 400) return;
  const refused = render.refusedRedirect(value.headers.get('Location') ?? '');
  if (refused !== undefined) throw failureData(render, refused, 'loader');
}

/** Each route module with its server handlers wrapped (copies: React Router's modules are read-only namespaces). */
function hostRoutes(routes: ServerBuild['routes']): ServerBuild['routes'] {
  const wrapped: ServerBuild['routes'] = {};
  for (const [id, route] of Object.entries(routes)) {
    if (route === undefined) continue;
    const module = { ...route.module } as Record<string, unknown>;
    for (const name of ['loader', 'action'] as const)
      if (typeof module[name] === 'function') module[name] = wrapHandler(module[name] as Handler);
    if (Array.isArray(module.middleware)) module.middleware = (module.middleware as Handler[]).map(wrapHandler);
    wrapped[id] = { ...route, module: module as unknown as typeof route.module };
  }
  return wrapped;
}

/**
 * What the handler answers in place of a page that only React Router's own root boundary could
 * show (the app's root route has no ErrorBoundary): the host's full error page, with the seed's
 * texts, from the terminal middleware (./page-renderer.ts throws it there).
 */
const UNHANDLED_HEADER = 'x-react-ssr-host-unhandled';
const unhandledAnswer = () => new Response(null, { status: 500, headers: { [UNHANDLED_HEADER]: '1' } });
/** Whether React Router answered with the host's marker (whatever middleware did around it, the header stays). */
export const isUnhandled = (response: Response) => response.headers.has(UNHANDLED_HEADER);

/** The app's entry (its own, or the host's: server/render/document.tsx), with the host around it. */
function hostEntry(entry: ServerEntryModule, streamTimeoutMs: number, rootBoundary: boolean): ServerEntryModule {
  const handleRequest: ServerEntryModule['default'] = async (request, status, headers, routerContext, loadContext) => {
    const render = renderOf(loadContext);
    if (render === undefined) return entry.default(request, status, headers, routerContext, loadContext);
    const rootFailure = routerContext.staticHandlerContext.errors?.root;
    if (rootFailure !== undefined && !rootBoundary) {
      // The value first recorded (the terminal middleware meets it again and records nothing more).
      render.unhandled ??= render.failure ?? rootFailure;
      return unhandledAnswer();
    }
    render.documentStarted = true;
    let response: Response;
    try {
      response = await entry.default(request, status, headers, routerContext, loadContext);
    } catch (thrown) {
      if (thrown instanceof Response) throw thrown;
      // The shell failed: React Router renders the route's boundary with this (an ErrorResponse, never sanitised).
      const recorded = render.record(thrown, 'render');
      const answer = Response.json(failurePayload(recorded, thrown), { status: recorded.status });
      ours.add(answer);
      throw answer;
    }
    return withRuntimeScript(response, render.runtimeScript);
  };
  const handleError: HandleErrorFunction = (error, args) => {
    if (typeof error === 'object' && error !== null && ours.has(error)) return;
    const render = renderOf(args.context);
    // The deadline's own reason: React Router stops waiting for the loaders when the request's
    // signal fires (it is the deadline's, ./request-deadline.ts) and answers an empty 500. A
    // loader that ignored its signal held the request: the host's 504 (./page-renderer.ts).
    if (render !== undefined && error === render.deadline.signal.reason && isInstance(error, StreamTimeoutError))
      return void render.loadersTimedOut();
    // What React Router caught itself (a no-route 404, a render's thrown Response): recorded once like any other.
    render?.record(error, 'render');
    entry.handleError?.(error, args);
  };
  // The deadline of the streamed values React Router encodes too (its turbo-stream's timeout).
  return { ...entry, default: handleRequest, handleError, streamTimeout: streamTimeoutMs };
}

const composed = new WeakMap<ServerBuild, ServerBuild>();

/** The build the host runs: composed once per build (development: once per edit, server/assets/frontend.ts). */
export function hostBuild(build: ServerBuild, streamTimeoutMs: number): ServerBuild {
  let made = composed.get(build);
  if (made === undefined) {
    const rootBoundary = typeof (build.routes.root?.module as { ErrorBoundary?: unknown } | undefined)?.ErrorBoundary === 'function';
    made = { ...build, routes: hostRoutes(build.routes), entry: { module: hostEntry(build.entry.module, streamTimeoutMs, rootBoundary) } };
    composed.set(build, made);
  }
  return made;
}
