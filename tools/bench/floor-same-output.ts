// Floor (f): what our 404 and our stored page answer, at the least it costs on the same stack.
// Bare Express and pino-http, nothing of ours (tests/house/import-graph.test.ts checks): every
// answer gets a request id, the security headers our server sends (the CSP with a fresh nonce),
// one access line of the same fields written to stdout, and the bytes our server answered for
// the page (the bench fetches them: FLOOR_404_FILE, FLOOR_PAGE_FILE) with its nonce and request
// id filled in per answer. The fixed-page and failure floors (floor-express.ts, floor-failure.tsx) answer less than our pages
// must: this one says how much of the gap is the answer itself, and how much is our code.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Response } from 'express';
import { pino } from 'pino';
import { pinoHttp } from 'pino-http';

/** 128 bits, as ours. */
const NONCE_BYTES = 16;
/** helmet's headers as our server sends them (server/edge/security-headers.ts), the nonce left out. */
const CSP = [
  "default-src 'self';script-src 'self' 'nonce-",
  "';style-src 'self' 'nonce-",
  "';style-src-attr 'unsafe-inline';img-src 'self' data:;connect-src 'self';font-src 'self';object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'",
];
const SECURITY_HEADERS: readonly [string, string][] = [
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'DENY'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
];

/** A page as our server answered it, cut where its nonce and request id stood: filled per answer. */
function template(file: string | undefined): (nonce: string, requestId: string) => string {
  const html = file === undefined ? '<!DOCTYPE html><title>page</title>' : readFileSync(file, 'utf8');
  const nonce = /nonce="([^"]+)"/.exec(html)?.[1];
  const requestId = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(html)?.[0];
  const byNonce = nonce === undefined ? [html] : html.split(nonce);
  const pieces = byNonce.map((part) => (requestId === undefined ? [part] : part.split(requestId)));
  return (value, id) => pieces.map((parts) => parts.join(id)).join(value);
}

const notFoundPage = template(process.env.FLOOR_404_FILE);
const storedPage = template(process.env.FLOOR_PAGE_FILE);

type Line = Record<string, unknown>;
const accessLine = (req: IncomingMessage, res: ServerResponse): Line => ({
  reqId: (req as IncomingMessage & { id: string }).id,
  method: req.method,
  path: req.url,
  route: res.statusCode === 404 ? 'unmatched' : 'page:about',
  status: res.statusCode,
  durationMs: 0,
  bytes: req.socket.bytesWritten,
  ip: req.socket.remoteAddress,
  userAgent: req.headers['user-agent'],
  ...(res.statusCode === 404 && { reason: 'This page could not be found.' }),
});

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(
  pinoHttp({
    logger: pino({ base: { release: 'floor', replica: 'floor' } }),
    wrapSerializers: false,
    serializers: { req: () => undefined },
    genReqId(_req, res) {
      const id = randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customSuccessObject: accessLine,
    customErrorObject: accessLine,
  }),
);
app.use((_req, res, next) => {
  const nonce = randomBytes(NONCE_BYTES).toString('base64');
  res.locals.nonce = nonce;
  res.setHeader('Content-Security-Policy', CSP.join(nonce));
  for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
  next();
});
app.get('/healthz', (_req, res) => void res.type('text/plain').send('ok'));

const send = (res: Response, status: number, cacheControl: string, html: string) =>
  void res.status(status).set({ 'Cache-Control': cacheControl, Vary: 'Accept-Encoding' }).type('html').send(html);
const idOf = (res: Response) => String((res.req as { id?: unknown }).id);

app.get('/page', (_req, res) => {
  res.set({ 'x-cache': 'HIT', Age: '0' });
  send(res, 200, 'private, no-cache', storedPage(res.locals.nonce as string, idOf(res)));
});
app.use((_req, res) => send(res, 404, 'no-store', notFoundPage(res.locals.nonce as string, idOf(res))));
app.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
