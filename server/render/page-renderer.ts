import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { createRequestHandler, type ServerBuild } from 'react-router';
import type { Config } from '../config/config.ts';
import type { FailureKind } from '../observe/metrics.ts';
import type { FailureRecorder, Recorded } from '../failures/recorder.ts';
import { ClientAbortError, CrossOriginRedirectError, LoaderTimeoutError, StreamTimeoutError } from '../failures/errors.ts';
import { devDetail, isInstance } from '../failures/thrown-value.ts';
import type { HostSession } from '../../shared/session-data.ts';
import type { BodyLimits } from '../../shared/body-limits.ts';
import type { BrowserSentryConfig, TraceMeta } from '../../shared/runtime.ts';
import type { PageValues } from '../pages/page-template.ts';
import { hostBuild, isUnhandled } from './host-build.ts';
import type { RenderTracing } from './render-tracing.ts';
import { requestContext, type RequestContextDeps } from './request-context.ts';
import type { Deadline } from '../edge/request-deadline.ts';
import type { RenderContext } from './render-context.ts';
import { isSameOriginTarget } from './redirect-target.ts';
import { runtimeScript } from './document-head.ts';
import type { InlineStyles } from '../assets/inline-styles.ts';
import { createRouteTable, type RouteTable } from './route-table.ts';
import { withoutDiagnostics } from './public-build.ts';

// One request through React Router's own handler (`createRequestHandler` from react-router:
// https://reactrouter.com/api/other-api/adapter), with the host's context around it: its
// session, database and limits for the app (shared/host-context.ts), and for the host's own
// wrappers (./host-build.ts) the nonce, the deadline and the one hook that records failures.
// A client's request (./react-router-handler.ts) and a stored page's regeneration
// (server/render/regeneration.ts) both render through it.

export interface RendererDeps extends RequestContextDeps {
  config: Config;
  failures: FailureRecorder;
  /** The app's build: one in production, the latest edit's in development (server/assets/frontend.ts). */
  build(): Promise<ServerBuild>;
  /** The build id the browser is told (shared/runtime.ts). */
  buildId: string;
  /** The built stylesheets written into documents (./document-head.ts); none in development. */
  inlineStyles?: InlineStyles;
  traceMeta?: () => TraceMeta | undefined;
  /** OTLP export's spans of a render (./host-build.ts). */
  tracing?: RenderTracing;
}

export interface RenderRequest {
  req: ExpressRequest;
  /** The response failures are recorded on: the client's, or a regeneration's own. */
  res: ExpressResponse;
  url: URL;
  method: string;
  headers: Headers;
  body?: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>;
  session: HostSession;
  deadline: Deadline;
  /** Its per-request values: this answer's own, or a stored page's markers (server/pages/page-template.ts). */
  values: PageValues;
  bot: boolean;
  /** How its failures are counted (server/observe/metrics.ts). */
  kind?: FailureKind;
  /** Filled with the names of the request headers its loaders read, when given (a page that may be stored). */
  headerReads?: Set<string>;
  /** The limits its body was held to (a read: the host's), for the upload helper (`context.parseForm`). */
  bodyLimits: BodyLimits;
  /** Whether it may see the diagnostic routes. */
  diagnostics: boolean;
}

function browserSentry(config: Config): BrowserSentryConfig | undefined {
  const { sentry } = config;
  if (sentry === undefined) return undefined;
  const { dsn, environment, tunnelPath, tracesSampleRate } = sentry;
  return { dsn, environment, tracesSampleRate, tunnel: tunnelPath, release: config.release };
}

export type PageRenderer = ReturnType<typeof createPageRenderer>;

export function createPageRenderer(deps: RendererDeps) {
  const { config, failures } = deps;
  const mode = config.isProduction || config.nodeEnv === 'test' ? 'production' : 'development';
  const sentry = browserSentry(config);
  type Runnable = { handle: ReturnType<typeof createRequestHandler>; table: RouteTable };
  const prepared = new WeakMap<ServerBuild, { full: Runnable; public: Runnable; manifestPath: string | undefined }>();
  const runnable = (build: ServerBuild): Runnable => ({
    handle: createRequestHandler(
      hostBuild(build, {
        streamTimeoutMs: config.streamTimeoutMs,
        allowedOrigins: config.allowedOrigins,
        tracing: deps.tracing,
      }),
      mode,
    ),
    table: createRouteTable(build),
  });

  /** The host's one hook for a request: a loader's failure past the deadline is the deadline's; a client that left is none. */
  const recorderFor = ({ req, res, deadline: { signal }, kind }: RenderRequest) => {
    return (error: unknown, where: 'loader' | 'render'): Recorded => {
      // A loader's failure once the deadline fired is the deadline's; the host's own timeout is itself.
      const cause: unknown = where === 'loader' && signal.aborted && !isInstance(error, LoaderTimeoutError) ? signal.reason : error;
      if (isInstance(cause, ClientAbortError)) return { status: 499, digest: undefined };
      const recorded = failures.record(cause, req, res, kind ?? where);
      const shown = recorded.digest !== undefined && !config.isProduction ? { ...recorded, detail: devDetail(cause) } : recorded;
      // The proof beside the digest is an HMAC: signed only when a page carries it, never for a resource route's JSON.
      let signed: string | undefined;
      return {
        ...shown,
        get pageDigest() {
          return (signed ??= failures.pageDigest(recorded, req));
        },
      };
    };
  };

  /**
   * The app's build as the host runs it, and its route table (./route-table.ts): made once per
   * build. A request without the diagnostics token runs it without the diagnostic routes (./public-build.ts).
   */
  async function prepare(diagnostics: boolean) {
    const build = await deps.build();
    let made = prepared.get(build);
    if (made === undefined) {
      const full = runnable(build);
      const publicBuild = withoutDiagnostics(build);
      made = {
        full,
        public: publicBuild === build ? full : runnable(publicBuild),
        // Where React Router answers route discovery, if it does (./manifest-request.ts).
        manifestPath: build.routeDiscovery.mode === 'lazy' ? build.routeDiscovery.manifestPath : undefined,
      };
      prepared.set(build, made);
    }
    return { ...(diagnostics ? made.full : made.public), manifestPath: made.manifestPath };
  }

  return {
    prepare,

    /** React Router's answer to `request`, or the deadline's (a LoaderTimeoutError, recorded once). */
    async render(request: RenderRequest, routeId: string | undefined): Promise<Response> {
      const { handle } = await prepare(request.diagnostics);
      const { req, res, values, url, deadline } = request;
      const recordFailure = recorderFor(request);
      let loaderTimeout: LoaderTimeoutError | undefined;
      const render: RenderContext = {
        nonce: values.nonce,
        hostname: values.hostname,
        deadline,
        bot: request.bot,
        record(error, where) {
          const recorded = recordFailure(error, where);
          if (recorded.status >= 400) render.failure ??= error;
          return recorded;
        },
        rejected(reason) {
          res.locals.rejection ??= reason;
        },
        refusedRedirect: (location: string) =>
          isSameOriginTarget(location, url.origin) ? undefined : new CrossOriginRedirectError(location),
        head: {
          script: runtimeScript(
            { hostname: values.hostname, build: deps.buildId, requestId: values.requestId, trace: values.trace, sentry },
            values.nonce,
          ),
          nonce: values.nonce,
          styles: deps.inlineStyles,
        },
        headerReads: request.headerReads,
        loadersTimedOut() {
          if (loaderTimeout === undefined) {
            loaderTimeout = new LoaderTimeoutError(routeId ?? 'unmatched', config.streamTimeoutMs);
            render.record(loaderTimeout, 'loader');
          }
          return loaderTimeout;
        },
      };
      const fetchRequest = new Request(url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        // An upload's stream is read as it arrives (the Fetch API asks for it by name).
        duplex: 'half',
        signal: deadline.signal,
      } as RequestInit);
      let settle!: () => void;
      const handled = new Promise<void>((resolve) => (settle = resolve));
      const context = requestContext(deps, req, request.session, render, {
        id: values.requestId,
        bodyLimits: request.bodyLimits,
        diagnostics: request.diagnostics,
        handled,
      });
      const answered = handle(fetchRequest, context);
      void answered.then(settle, settle);
      const response = await untilRendered(answered, deadline, render);
      // React Router gave up on the loaders at the deadline (./host-build.ts): the host's 504 with its digest.
      if (loaderTimeout !== undefined) throw loaderTimeout;
      // A failure only React Router's own root boundary would show: the host's page (server/render/host-build.ts).
      if (isUnhandled(response)) throw render.unhandled;
      return response;
    },

    /** What the browser is told of this answer, beside its nonce. */
    traceMeta: () => deps.traceMeta?.(),
  };
}

/**
 * React Router's answer, or the deadline's: its loader phase ends when the render signal fires
 * (the deadline and its grace, ../edge/request-deadline.ts). A loader that ignored its signal is then
 * one timeout failure naming the route, recorded as a loader's (504: nothing was sent yet). Once
 * the document render has begun the loaders are done: a crawler's whole page still waiting then
 * waits on a streamed section, which the entry aborts on the same signal and answers client-rendered
 * (./document.tsx), so the answer is the entry's.
 */
function untilRendered(work: Promise<Response>, { renderSignal }: Deadline, render: RenderContext): Promise<Response> {
  return new Promise((resolve, reject) => {
    // Recorded once by loadersTimedOut(); the terminal middleware meets the same value and does not record it again.
    const onAbort = () => {
      if (render.documentStarted) return;
      reject(isInstance(renderSignal.reason, StreamTimeoutError) ? render.loadersTimedOut() : (renderSignal.reason as Error));
    };
    if (renderSignal.aborted) return onAbort();
    renderSignal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => renderSignal.removeEventListener('abort', onAbort));
  });
}
