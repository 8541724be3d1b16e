import { afterAll, beforeAll, vi } from 'vitest';
import { startServer, type RunningServer } from './server.ts';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerExport, spansOf, type ReceivedSpan } from './otlp-receiver.ts';

export interface EnvelopeItem {
  header: Record<string, unknown> & { type: string };
  payload: Buffer;
  /** The payload parsed as JSON, when it is JSON. */
  json?: Record<string, unknown>;
}

export interface Envelope {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  header: Record<string, unknown>;
  items: EnvelopeItem[];
}

/** Parses Sentry's envelope format: a header line, then per item a header line and a payload. */
export function parseEnvelope(raw: Buffer): Pick<Envelope, 'header' | 'items'> {
  let offset = 0;
  const line = (): Buffer => {
    const end = raw.indexOf(0x0a, offset);
    const stop = end === -1 ? raw.length : end;
    const out = raw.subarray(offset, stop);
    offset = stop + 1;
    return out;
  };
  const header = JSON.parse(line().toString('utf8')) as Record<string, unknown>;
  const items: EnvelopeItem[] = [];
  while (offset < raw.length) {
    const headerLine = line();
    if (headerLine.length === 0) continue;
    const itemHeader = JSON.parse(headerLine.toString('utf8')) as EnvelopeItem['header'];
    let payload: Buffer;
    if (typeof itemHeader.length === 'number') {
      payload = raw.subarray(offset, offset + itemHeader.length);
      offset += itemHeader.length + 1;
    } else {
      payload = line();
    }
    let json: Record<string, unknown> | undefined;
    try {
      json = JSON.parse(payload.toString('utf8')) as Record<string, unknown>;
    } catch {
      json = undefined;
    }
    items.push({ header: itemHeader, payload, json });
  }
  return { header, items };
}

export type IngestMode =
  { kind: 'ok' } | { kind: 'rate-limited'; retryAfter: string; limits: string } | { kind: 'hang' } | { kind: 'redirect' };

/** A real HTTP server standing in for Sentry's ingest: records and parses every envelope. */
export class FakeSentry {
  readonly envelopes: Envelope[] = [];
  /** What arrived at the project's OTLP endpoint (OpenTelemetry's spans, beside OTLP export), in OTLP/JSON. */
  readonly otlp: { headers: IncomingHttpHeaders; spans: ReceivedSpan[] }[] = [];
  mode: IngestMode = { kind: 'ok' };
  private server: Server | undefined;
  private port = 0;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        if (req.url?.startsWith('/api/1/integration/otlp/v1/traces')) {
          this.otlp.push({ headers: req.headers, spans: spansOf(raw, req.headers['content-type']) });
          return answerExport(res, req.headers['content-type']);
        }
        try {
          this.envelopes.push({ path: req.url ?? '', headers: req.headers, raw, ...parseEnvelope(raw) });
        } catch {
          // not an envelope: recorded nowhere, answered below all the same
        }
        this.answer(res);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  private answer(res: import('node:http').ServerResponse): void {
    const mode = this.mode;
    if (mode.kind === 'hang') return;
    if (mode.kind === 'redirect') return void res.writeHead(302, { Location: 'http://127.0.0.1:9/elsewhere' }).end();
    if (mode.kind === 'rate-limited') {
      return void res.writeHead(429, { 'Retry-After': mode.retryAfter, 'X-Sentry-Rate-Limits': mode.limits }).end();
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"id":"ok"}');
  }

  get dsn(): string {
    return `http://public@127.0.0.1:${this.port}/1`;
  }

  /** Error events (item type "event"). */
  events(): Record<string, unknown>[] {
    return this.envelopes
      .flatMap((e) => e.items)
      .filter((i) => i.header.type === 'event' && i.json)
      .map((i) => i.json!);
  }

  /** Every trace id seen in envelope headers, transactions or streamed spans (span v2 items). */
  traceIds(): string[] {
    const ids = new Set<string>();
    for (const envelope of this.envelopes) {
      const trace = (envelope.header.trace as { trace_id?: string } | undefined)?.trace_id;
      if (trace) ids.add(trace);
      for (const item of envelope.items) {
        const spans = (item.json?.items as { trace_id?: string }[] | undefined) ?? [];
        for (const span of item.header.type === 'span' ? spans : []) if (span.trace_id) ids.add(span.trace_id);
        const transaction = (item.json?.contexts as { trace?: { trace_id?: string } } | undefined)?.trace?.trace_id;
        if (item.header.type === 'transaction' && transaction) ids.add(transaction);
      }
    }
    return [...ids];
  }

  /** Resolves with the probe's first defined value, as envelopes arrive (vitest's vi.waitFor). */
  waitFor<T>(probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
    return vi.waitFor(
      () => {
        const value = probe();
        if (value === undefined) throw new Error('the fake Sentry ingest has not received it yet');
        return value;
      },
      { timeout: timeoutMs, interval: 20 },
    );
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The built server with Sentry loaded first, as `npm start` and the image run it (STACK: `node --import`). */
export const WITH_SENTRY = ['node', '--import', './dist/server/instrument.js', 'dist/server/index.js'];

/**
 * Inside a describe: a fake Sentry ingest, and a built server reporting to it with `env`,
 * started before the tests and stopped after. Read `suite.server` inside the tests.
 */
export function sentryServerSuite(env: Record<string, string>): { sentry: FakeSentry; server: RunningServer } {
  const suite = { sentry: new FakeSentry(), server: undefined as unknown as RunningServer };
  beforeAll(async () => {
    await suite.sentry.start();
    suite.server = await startServer({ SENTRY_DSN: suite.sentry.dsn, ...env }, WITH_SENTRY);
  });
  afterAll(async () => {
    await (suite.server as RunningServer | undefined)?.stop('SIGKILL');
    await suite.sentry.stop();
  });
  return suite;
}
