// An OTLP/HTTP receiver for the tests (traces and logs): what an OpenTelemetry Collector's otlphttp receiver takes,
// spans in protobuf (./otlp-protobuf.ts) or JSON, log records in JSON, as the specification defines them (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding:
// ids as hex, enums as numbers, attributes as key and typed value), decoded into flat spans.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tracesRequestOf } from './otlp-protobuf.ts';

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP's SpanKind: 2 is a server span. */
  kind: number;
  attributes: Record<string, string | number | boolean | undefined>;
  events: { name: string; attributes: Record<string, string | number | boolean | undefined> }[];
  /** OTLP's status code: 2 is an error. */
  statusCode: number;
  resource: Record<string, string | number | boolean | undefined>;
}

export interface ReceivedLog {
  body: string | undefined;
  severityText: string | undefined;
  /** Empty when the line named no span. */
  traceId: string;
  spanId: string;
  attributes: Record<string, string | number | boolean | undefined>;
}

export interface OtlpReceiver {
  url: string;
  /** While true, every export is answered 400, which an exporter does not retry: a collector that refuses it. */
  refusing: boolean;
  /** Every request's path and headers, as they came. */
  requests: { path: string | undefined; headers: IncomingHttpHeaders }[];
  spans: ReceivedSpan[];
  logs: ReceivedLog[];
  /** The first span `matches` picks, once it has arrived. */
  spanWhere(matches: (span: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>;
  /** The first log record `matches` picks, once it has arrived. */
  logWhere(matches: (log: ReceivedLog) => boolean, timeoutMs?: number): Promise<ReceivedLog>;
  /** The request's span (`react_ssr_host.request_id`), once it has arrived. */
  spanOf(requestId: string, timeoutMs?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

const valueOf = (value: AnyValue) =>
  value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)) ?? value.boolValue ?? value.doubleValue;
const attributesOf = (list: KeyValue[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));

/** Polls `find` until it finds something, or fails naming `what`. */
async function arrival<T>(find: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
  const started = Date.now();
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() - started > timeoutMs) throw new Error(`no ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

type LogsBody = { resourceLogs: { scopeLogs: { logRecords: Record<string, unknown>[] }[] }[] };
type TracesBody = { resourceSpans: { resource: { attributes: KeyValue[] }; scopeSpans: { spans: Record<string, unknown>[] }[] }[] };

const PROTOBUF = 'application/x-protobuf';

/** An export's success, in the encoding it came in (an empty ExportTraceServiceResponse is no bytes in protobuf). */
export function answerExport(res: ServerResponse, type: string | undefined): void {
  if (type?.startsWith(PROTOBUF)) res.writeHead(200, { 'content-type': PROTOBUF }).end();
  else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
}

/** The spans of one OTLP traces request, JSON or protobuf by its type, flat (also what Sentry's OTLP endpoint takes: ./fake-sentry.ts). */
export function spansOf(body: Buffer, contentType: string | undefined): ReceivedSpan[] {
  const decoded = contentType?.startsWith(PROTOBUF) ? tracesRequestOf(body) : JSON.parse(body.toString('utf8'));
  const { resourceSpans } = decoded as TracesBody;
  return resourceSpans.flatMap(({ resource, scopeSpans }) =>
    scopeSpans.flatMap(({ spans }) =>
      spans.map((span) => ({
        traceId: span.traceId as string,
        spanId: span.spanId as string,
        parentSpanId: (span.parentSpanId as string | undefined) || undefined,
        name: span.name as string,
        kind: span.kind as number,
        attributes: attributesOf(span.attributes as KeyValue[]),
        events: ((span.events as { name: string; attributes: KeyValue[] }[]) ?? []).map((event) => ({
          name: event.name,
          attributes: attributesOf(event.attributes),
        })),
        statusCode: (span.status as { code?: number } | undefined)?.code ?? 0,
        resource: attributesOf(resource.attributes),
      })),
    ),
  );
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const logs: ReceivedLog[] = [];
  const requests: OtlpReceiver['requests'] = [];
  const server: Server = createServer((req, res) => {
    requests.push({ path: req.url, headers: req.headers });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (receiver.refusing) {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"code":3,"message":"refused by the test"}');
        return;
      }
      const type = req.headers['content-type'];
      const protobufSpans = req.url === '/v1/traces' && type?.startsWith(PROTOBUF);
      if (!type?.startsWith('application/json') && !protobufSpans) {
        res.writeHead(415).end();
        return;
      }
      if (req.url === '/v1/logs') {
        const { resourceLogs } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as LogsBody;
        for (const { scopeLogs } of resourceLogs)
          for (const { logRecords } of scopeLogs)
            for (const log of logRecords)
              logs.push({
                body: (log.body as AnyValue | undefined)?.stringValue,
                severityText: log.severityText as string | undefined,
                traceId: (log.traceId as string | undefined) ?? '',
                spanId: (log.spanId as string | undefined) ?? '',
                attributes: attributesOf(log.attributes as KeyValue[]),
              });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      spans.push(...spansOf(Buffer.concat(chunks), type));
      answerExport(res, type);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // The server's handler reads `refusing` here: it answers only once the receiver is returned.
  const receiver: OtlpReceiver = {
    refusing: false,
    url: `http://127.0.0.1:${port}`,
    requests,
    spans,
    logs,
    spanOf: (requestId, timeoutMs = 5_000) =>
      arrival(
        () => spans.find((span) => span.attributes['react_ssr_host.request_id'] === requestId),
        `span of request ${requestId}`,
        timeoutMs,
      ),
    spanWhere: (matches, timeoutMs = 5_000) => arrival(() => spans.find(matches), 'matching span', timeoutMs),
    logWhere: (matches, timeoutMs = 5_000) => arrival(() => logs.find(matches), 'matching log record', timeoutMs),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return receiver;
}
