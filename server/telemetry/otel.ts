// Traces exported over OTLP with OpenTelemetry's own SDK (docs/operating.md, "Traces"): loaded
// by server/index.ts only when an endpoint is configured (server/config/otel-config.ts). One
// server span a request, continuing the `traceparent` of a proxy TRUST_PROXY trusts (anyone
// else's starts a new trace: no client chooses which trace its request joins), named for its
// route, with its status, and on a failure the digest and an exception event, the same digest
// its failure line carries. The access and failure lines carry the span's trace and span ids. An
// app's own spans (through @opentelemetry/api) are children of the request's: the provider and an
// AsyncLocalStorage context are registered globally. With SENTRY_DSN too, the same provider sends
// Sentry the same spans (./sentry-spans.ts), and Sentry's events name its trace (server/instrument.ts).
import {
  context,
  createContextKey,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, TracerProvider } from '@opentelemetry/sdk-trace';
import type { Request, RequestHandler, Response as ExpressResponse } from 'express';
import type { ServerBuild } from 'react-router';
import type { OtelConfig } from '../config/otel-config.ts';
import type { Reporter } from '../failures/recorder.ts';
import { traceFlagsOf, type TraceContext } from '../../shared/log-line.ts';
import type { TraceMeta } from '../../shared/runtime.ts';
import { pathOf, routedPath } from '../observe/url-path.ts';
import { startLogExport } from './otel-logs.ts';
import { processorsOf, samplerOf } from './span-export.ts';

/** What the spans' scope is called in a backend. */
const TRACER_NAME = 'react-ssr-host';
/** The resource's service.name when OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES name none. */
const DEFAULT_SERVICE_NAME = 'react-ssr-host';
/** The request's own span in its context: inside a middleware's call, the active span is the middleware's. */
const REQUEST_SPAN = createContextKey('react-ssr-host request span');
/** What the exit waits for the last spans, as for Sentry's events (server/telemetry/sentry.ts): the drain's budget has it. */
const SHUTDOWN_FLUSH_MS = 2_000;
/** The host's own attributes, beside the semantic conventions' (https://opentelemetry.io/docs/specs/semconv/http/http-spans/). */
export const DIGEST_ATTRIBUTE = 'react_ssr_host.digest';
export const ROUTE_ATTRIBUTE = 'react_ssr_host.route';
export const REQUEST_ID_ATTRIBUTE = 'react_ssr_host.request_id';

type ServerInstrumentation = NonNullable<ServerBuild['entry']['module']['instrumentations']>[number];
type HandlerResult = { status: 'success' | 'error' };
type RouteInstrument = (call: () => Promise<HandlerResult>, info: { pattern?: string }) => Promise<void>;

export interface OtelTracing {
  /**
   * Opens the request's span and runs the rest of the request in its context; ends it when the
   * response closes. `untraced`: paths that get none (health probes, the Sentry tunnel's relays).
   */
  requestSpans(trustsPeer: (address: string | undefined) => boolean, untraced: ReadonlySet<string>): RequestHandler;
  /** Runs `work` with the request's span active: for what runs outside the request's context (a failure met in React's stream). */
  inRequestContext(res: ExpressResponse, work: () => void): void;
  /** Marks the request's span failed, with the failure line's digest (server/failures/recorder.ts's Reporter). */
  report: Reporter;
  /** The request's span's ids, for its access and failure lines (server/observe/access-log.ts). */
  traceContext(): TraceContext | undefined;
  /** The active span as a page's `traceparent` (shared/runtime.ts), and the span itself. */
  traceMeta(): TraceMeta | undefined;
  activeSpan(): Span | undefined;
  /** React Router's instrumentation (its entry's `instrumentations`): a span for each middleware, loader and action. */
  instrumentations: ServerInstrumentation[];
  /** A span over the document's render and streaming, to its last byte (or the client leaving). */
  traceDocument(render: () => Promise<Response>): Promise<Response>;
  /** Each log line, exported as a log record too (undefined with OTEL_LOGS_EXPORTER=none). */
  exportLine: ((line: string) => void) | undefined;
  /** Sends what is batched, at shutdown (bounded by the exporter's timeout). */
  shutdown(): Promise<void>;
}

/** `00-<trace id>-<span id>-<flags>`: https://www.w3.org/TR/trace-context/#traceparent-header */
const traceparentOf = ({ traceId, spanId, traceFlags }: { traceId: string; spanId: string; traceFlags: number }) =>
  `00-${traceId}-${spanId}-${traceFlagsOf(traceFlags)}`;

interface Identity {
  release: string;
  replica: string;
  /** SENTRY_DSN, when Sentry takes the spans too. */
  sentryDsn: string | undefined;
}

export async function startOtelTracing(otel: OtelConfig, { release, replica, sentryDsn }: Identity): Promise<OtelTracing> {
  // service.version and service.instance.id are the host's (RELEASE, REPLICA); OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME override them.
  const resource = resourceFromAttributes({
    'service.name': DEFAULT_SERVICE_NAME,
    'service.version': release,
    'service.instance.id': replica,
  }).merge(detectResources({ detectors: [envDetector] }));
  const provider = new TracerProvider({
    resource,
    // Traces off (logs alone): spans are still made, so lines and log records carry ids, but none is recorded.
    sampler: otel.traces ? samplerOf(otel) : new AlwaysOffSampler(),
    spanProcessors: otel.traces ? await processorsOf(otel.traces, sentryDsn) : [],
  });
  const logs = otel.logs ? await startLogExport(otel.logs, resource) : undefined;
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const tracer = provider.getTracer(TRACER_NAME);

  /** The document span's end, by its request's span: ended with the request if the stream never finished. */
  const documentEnds = new WeakMap<Span, () => void>();

  function end(req: Request, res: ExpressResponse, span: Span): void {
    documentEnds.get(span)?.();
    const route = typeof res.locals.route === 'string' ? res.locals.route : undefined;
    span.setAttribute('http.response.status_code', res.statusCode);
    // Given by the access log, which runs after the span is opened (server/observe/access-log.ts).
    span.setAttribute(REQUEST_ID_ATTRIBUTE, String(req.id));
    if (route !== undefined) {
      span.setAttribute(ROUTE_ATTRIBUTE, route);
      span.updateName(`${req.method} ${route}`);
    }
    // A server span is an error for a 5xx only (the semantic conventions: a 4xx is the client's).
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }

  /**
   * One span around each middleware, loader and action of a route, through React Router's own
   * instrumentation API (https://reactrouter.com/how-to/instrumentation), not by wrapping its
   * modules: a child of the request's span (the context is the request's).
   */
  const instrumentations: ServerInstrumentation[] = [
    {
      route(route) {
        const traced =
          (kind: 'middleware' | 'loader' | 'action'): RouteInstrument =>
          (call, info) =>
            tracer.startActiveSpan(
              `${kind} ${route.id}`,
              { attributes: { 'react_router.route.id': route.id, ...(info.pattern !== undefined && { 'http.route': info.pattern }) } },
              async (span) => {
                // React Router calls a throw an error only for an Error: never a `data()` or a
                // Response, so a 404 thrown on purpose is no error; the host's own failures are
                // marked by report() (below), which sees them as the host records them.
                const result = await call();
                if (result.status === 'error') span.setStatus({ code: SpanStatusCode.ERROR });
                span.end();
              },
            );
        route.instrument({ middleware: traced('middleware'), loader: traced('loader'), action: traced('action') });
      },
    },
  ];

  return {
    instrumentations,
    async traceDocument(render) {
      const span = tracer.startSpan('render document', {}, context.active());
      // Not sampled: nothing to time, and the body is handed on without a stream of ours around it.
      if (!span.isRecording()) return render();
      let response: Response;
      try {
        response = await context.with(trace.setSpan(context.active(), span), render);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
        throw error;
      }
      if (response.body === null) {
        span.end();
        return response;
      }
      let ended = false;
      const done = () => {
        if (!ended) span.end();
        ended = true;
      };
      // Its last byte ends it; a client that leaves first, the request's own end (below).
      const request = context.active().getValue(REQUEST_SPAN) as Span | undefined;
      if (request !== undefined) documentEnds.set(request, done);
      const body = response.body.pipeThrough(new TransformStream({ flush: done }));
      return new Response(body, response);
    },
    requestSpans(trustsPeer, untraced) {
      return (req, res, next) => {
        if (untraced.has(routedPath(req.url))) return next();
        // A trusted proxy's traceparent (and tracestate) is continued; anyone else's is not read.
        const parent: Context = trustsPeer(req.socket.remoteAddress) ? propagation.extract(ROOT_CONTEXT, req.headers) : ROOT_CONTEXT;
        const span = tracer.startSpan(
          req.method,
          {
            kind: SpanKind.SERVER,
            attributes: {
              'http.request.method': req.method,
              'url.path': pathOf(req.originalUrl),
              'url.scheme': req.protocol,
            },
          },
          parent,
        );
        res.locals.otelSpan = span;
        res.once('close', () => end(req, res, span));
        context.with(trace.setSpan(parent, span).setValue(REQUEST_SPAN, span), next);
      };
    },
    inRequestContext(res, work) {
      const span = res.locals.otelSpan as Span | undefined;
      // In the request's trace already (its loader's span, say): that span is the more precise.
      if (span === undefined || trace.getActiveSpan()?.spanContext().traceId === span.spanContext().traceId) return work();
      context.with(trace.setSpan(context.active(), span), work);
    },
    report({ error, digest }, res) {
      // The request's span (its response's: a failure met in React's stream may be recorded outside
      // the request's context), and the loader's or action's whose call failed, if it is another:
      // React Router's instrumentation sees the host's failure as an answer (a `data()`), not an Error.
      const spans = new Set([res.locals.otelSpan as Span | undefined, trace.getActiveSpan()]);
      for (const span of spans) {
        if (span === undefined) continue;
        span.setAttribute(DIGEST_ATTRIBUTE, digest);
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
    },
    exportLine: logs?.exportLine,
    traceContext() {
      const span = trace.getActiveSpan();
      if (span === undefined) return undefined;
      const { traceId, spanId, traceFlags } = span.spanContext();
      return { trace_id: traceId, span_id: spanId, trace_flags: traceFlagsOf(traceFlags) };
    },
    traceMeta() {
      const span = trace.getActiveSpan();
      return span && { traceparent: traceparentOf(span.spanContext()) };
    },
    activeSpan: () => trace.getActiveSpan(),
    async shutdown() {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_FLUSH_MS)));
      const flushed = Promise.all([provider.shutdown(), logs?.shutdown()]).catch(() => undefined);
      await Promise.race([flushed, late]);
      clearTimeout(timer);
    },
  };
}
