import { STATUS_CODES } from 'node:http';
import { data, isRouteErrorResponse, type HandleErrorFunction, type ServerBuild, type ServerEntryModule } from 'react-router';
import type { FailureData } from '../../shared/host-boundary.tsx';
import { parseServerDigest } from '../../shared/digest-proof.ts';
import { httpError, notFound, StreamTimeoutError } from '../failures/errors.ts';
import type { Recorded } from '../failures/recorder.ts';
import { publicMessage } from '../failures/error-status.ts';
import { renderOf, type RenderContext } from './render-context.ts';
import { withDocumentHead } from './document-head.ts';
import { watchedRequest } from './watched-request.ts';
import { isInstance, readProperty } from '../failures/thrown-value.ts';
import type { RenderTracing } from './render-tracing.ts';

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

/**
 * React Router's own refusal (a path no route matches, a method no action takes: an internal
 * ErrorResponse) as the host's HttpError of its status, so its reason on the access line is the
 * host's text (server/failures/errors.ts), not React Router's inspected internals with the path in them.
 */
function hostRefusal(error: unknown): unknown {
  if (!isRouteErrorResponse(error) || !(error as { internal?: unknown }).internal || error.status >= 500) return error;
  return error.status === 404 ? notFound() : httpError(error.status);
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
  // `detail` only outside production (./page-renderer.ts): there the boundary shows the message and stack.
  const { digest, detail } = recorded;
  return { message: 'Unexpected Server Error', digest, ...(proof !== undefined && { proof }), ...(detail !== undefined && { detail }) };
}

function failureData(render: RenderContext, error: unknown, where: 'loader' | 'render') {
  const recorded = render.record(error, where);
  const answer = data(failurePayload(recorded, error), { status: recorded.status });
  ours.add(answer);
  return answer;
}

/**
 * A resource route has no boundary to show a failure in: its answer is the host's JSON error
 * (docs/errors.md, `{"error":{"status","message","digest"}}`), thrown as a Response, which React
 * Router answers as it is (its handleResourceRequest).
 */
function failureJson(render: RenderContext, error: unknown): Response {
  const { status, digest } = render.record(error, 'loader');
  return Response.json({ error: { status, message: publicMessage(error, status), ...(digest !== undefined && { digest }) } }, { status });
}

/** What the Fetch API's `formData()` throws on a multipart body that does not parse (undici's text, Node 22 to 26). */
const UNPARSED_FORM = 'Failed to parse body as FormData.';

/**
 * The client's mistake met inside the app: an upload streams to the action (../writes/request-body.ts), so
 * a broken one is found by the action's own `request.formData()`; a 400 that says so, not a 500.
 */
function clientsFault(thrown: unknown): unknown {
  if (!isInstance(thrown, TypeError) || readProperty(thrown, 'message') !== UNPARSED_FORM) return thrown;
  return httpError(400, 'Malformed request body: broken multipart', { cause: thrown });
}

/** A loader, action or middleware of the app, with its failures recorded and thrown on in the host's shape; its redirects checked. */
function wrapHandler(handler: Handler, resource: boolean): Handler {
  // What React Router takes thrown (a Response, a `data()`), never an Error.
  const failure = (render: RenderContext, thrown: unknown): unknown =>
    resource ? failureJson(render, thrown) : failureData(render, thrown, 'loader');
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
      if (!isIntended(thrown)) throw failure(render, clientsFault(thrown));
      [value, threw] = [thrown, true];
      const reason = rejectionOf(thrown);
      if (reason !== undefined) render.rejected(reason);
    }
    const refused = refusedRedirect(render, value);
    if (refused !== undefined) throw failure(render, refused);
    if (threw) throw value;
    return value;
  };
}

/**
 * A redirect the browser would follow to another origin is refused (CrossOriginRedirectError,
 * server/failures/errors.ts): one failure with one digest, thrown in the host's shape.
 */
function refusedRedirect(render: RenderContext, value: unknown): Error | undefined {
  if (!(value instanceof Response) || value.status < 300 || value.status >= 400) return undefined;
  return render.refusedRedirect(value.headers.get('Location') ?? '');
}

/** Each route module with its server handlers wrapped (copies: React Router's modules are read-only namespaces). */
function hostRoutes(routes: ServerBuild['routes']): ServerBuild['routes'] {
  const wrapped: ServerBuild['routes'] = {};
  for (const [id, route] of Object.entries(routes)) {
    if (route === undefined) continue;
    const module = { ...route.module } as Record<string, unknown>;
    // A route without a component answers with its loader's or action's own Response.
    const resource = typeof module.default !== 'function';
    const wrap = (handler: Handler) => wrapHandler(handler, resource);
    for (const name of ['loader', 'action'] as const) if (typeof module[name] === 'function') module[name] = wrap(module[name] as Handler);
    if (Array.isArray(module.middleware)) module.middleware = (module.middleware as Handler[]).map(wrap);
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
function hostEntry(entry: ServerEntryModule, streamTimeoutMs: number, rootBoundary: boolean, tracing?: RenderTracing): ServerEntryModule {
  const handleRequest: ServerEntryModule['default'] = async (request, status, headers, routerContext, loadContext) => {
    const render = renderOf(loadContext);
    if (render === undefined) return entry.default(request, status, headers, routerContext, loadContext);
    const rootFailure: unknown = routerContext.staticHandlerContext.errors?.root;
    if (rootFailure !== undefined && !rootBoundary) {
      // The value first recorded (the terminal middleware meets it again and records nothing more).
      render.unhandled ??= render.failure ?? rootFailure;
      return unhandledAnswer();
    }
    render.documentStarted = true;
    let response: Response;
    try {
      const document = () => Promise.resolve(entry.default(request, status, headers, routerContext, loadContext));
      response = await (tracing ? tracing.traceDocument(document) : document());
    } catch (thrown) {
      if (thrown instanceof Response) throw thrown;
      // The shell failed: React Router renders the route's boundary with this (an ErrorResponse, never sanitised).
      const recorded = render.record(thrown, 'render');
      const answer = Response.json(failurePayload(recorded, thrown), { status: recorded.status });
      ours.add(answer);
      throw answer;
    }
    // The host's own entry wrote it into React's stream already (./document.tsx).
    return (entry as { writesDocumentHead?: unknown }).writesDocumentHead === true ? response : withDocumentHead(response, render.head);
  };
  const handleError: HandleErrorFunction = (error, args) => {
    if (typeof error === 'object' && error !== null && ours.has(error)) return;
    const render = renderOf(args.context);
    // The deadline's own reason: React Router stops waiting for the loaders when the request's
    // signal fires (it is the deadline's, ../edge/request-deadline.ts) and answers an empty 500. A
    // loader that ignored its signal held the request: the host's 504 (./page-renderer.ts).
    if (render !== undefined && error === render.deadline.signal.reason && isInstance(error, StreamTimeoutError))
      return void render.loadersTimedOut();
    // What React Router caught itself (a no-route 404, a render's thrown Response): recorded once like any other.
    render?.record(hostRefusal(error), 'render');
    entry.handleError?.(error, args);
  };
  // The deadline of the streamed values React Router encodes too (its turbo-stream's timeout); the
  // app's own instrumentations, then the host's (OTLP export: server/telemetry/otel.ts).
  const instrumentations = tracing ? [...(entry.instrumentations ?? []), ...tracing.instrumentations] : entry.instrumentations;
  return { ...entry, default: handleRequest, handleError, streamTimeout: streamTimeoutMs, instrumentations };
}

/**
 * React Router refuses an action whose Origin is not the request's own, unless the build's
 * `allowedActionOrigins` names its host (its throwIfPotentialCSRFAttack: a 400). The host has
 * refused every cross-site write before (server/edge/cross-site-writes.ts), and let through the
 * origins ALLOWED_ORIGINS names: React Router is told them too, or it refused those as a 400.
 */
function actionOrigins(build: ServerBuild, allowedOrigins: readonly string[]): string[] {
  // An app's own list (react-router.config.ts) is kept; a build without one says `false`, none.
  const own = Array.isArray(build.allowedActionOrigins) ? build.allowedActionOrigins : [];
  return [...own, ...allowedOrigins.map((origin) => new URL(origin).host)];
}

export interface HostBuildOptions {
  streamTimeoutMs: number;
  /** The other sites whose pages may post here (ALLOWED_ORIGINS: server/config/config.ts), as origins. */
  allowedOrigins: readonly string[];
  tracing?: RenderTracing;
}

/**
 * The build the host runs, with its options: composed once per build by its renderer
 * (./page-renderer.ts; development: once per edit, server/assets/frontend.ts). Not cached here:
 * two apps of one process (the tests') may serve one build with other options.
 */
export function hostBuild(build: ServerBuild, { streamTimeoutMs, allowedOrigins, tracing }: HostBuildOptions): ServerBuild {
  const rootBoundary = typeof (build.routes.root?.module as { ErrorBoundary?: unknown } | undefined)?.ErrorBoundary === 'function';
  return {
    ...build,
    routes: hostRoutes(build.routes),
    entry: { module: hostEntry(build.entry.module, streamTimeoutMs, rootBoundary, tracing) },
    allowedActionOrigins: actionOrigins(build, allowedOrigins),
  };
}
