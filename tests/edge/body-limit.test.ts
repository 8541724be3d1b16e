import { describe, expect, it } from 'vitest';
import { CLIENT_ERRORS_PATH } from '../../shared/runtime.ts';
import { isAccessLine } from '../../shared/log-line.ts';
import { MAX_ENVELOPE_BYTES } from '../../server/telemetry/tunnel.ts';
import { DEFAULT_BODY_LIMITS } from '../../server/config/body-limits.ts';
import { listeningTestApp } from '../support/test-app.ts';
import { collect, openSocket, parseResponse } from '../support/raw-http.ts';

// Every endpoint that reads a body reads it through server/edge/body-limit.ts: a body over its cap,
// declared or streamed, is a 413 at once (never held to the request timeout), under one request
// id with one access line, and the connection is closed behind it. The client here sends what
// it declares only in part, or a chunked body that never ends: if the server waited for the
// body, no answer would come before the test's timeout, and the 30 s request timeout would
// add a 408 under a second id.

const { maxTextBytes } = DEFAULT_BODY_LIMITS;
const REPORT_CAP = 16 * 1024; // server/telemetry/client-errors.ts MAX_REPORT_BYTES
const ENDPOINTS: [string, number][] = [
  [CLIENT_ERRORS_PATH, REPORT_CAP],
  ['/monitoring', MAX_ENVELOPE_BYTES],
  // An action's body (the fixture app's form), posted as a document and by the browser's router
  // (React Router's navigation data, /board.data).
  ['/board', maxTextBytes],
  ['/board.data', maxTextBytes],
];

type Shape = { name: string; headers: (cap: number) => string[]; body: (cap: number) => string; status: number };

const chunk = (size: number) => `${size.toString(16)}\r\n${'x'.repeat(size)}\r\n`;
/** Chunks of 8 KiB past the cap, and no last chunk: the body never ends. */
const endlessChunks = (cap: number) => chunk(8192).repeat(Math.ceil(cap / 8192) + 1);

const SHAPES: Shape[] = [
  { name: 'declares one byte over the cap, sends nothing', headers: (cap) => [`Content-Length: ${cap + 1}`], body: () => '', status: 413 },
  { name: 'declares 10× the cap, sends a little', headers: (cap) => [`Content-Length: ${cap * 10}`], body: () => '{"kind":', status: 413 },
  { name: 'declares 1 GB', headers: () => ['Content-Length: 1000000000'], body: () => 'x'.repeat(100), status: 413 },
  { name: 'declares 2^53', headers: () => ['Content-Length: 9007199254740993'], body: () => '', status: 413 },
  {
    name: 'declares over the cap with 100-continue',
    headers: (cap) => [`Content-Length: ${cap + 1}`, 'Expect: 100-continue'],
    body: () => '',
    status: 413,
  },
  { name: 'streams chunks past the cap, never ending', headers: () => ['Transfer-Encoding: chunked'], body: endlessChunks, status: 413 },
  {
    name: 'streams one chunk larger than the cap',
    headers: () => ['Transfer-Encoding: chunked'],
    body: (cap) => chunk(cap + 1),
    status: 413,
  },
  { name: 'is gzip-encoded', headers: () => ['Content-Encoding: gzip', 'Content-Length: 10'], body: () => '', status: 415 },
  { name: 'is encoded twice', headers: () => ['Content-Encoding: gzip, br', 'Content-Length: 10'], body: () => '', status: 415 },
];

const CASES = ENDPOINTS.flatMap(([path, cap]) =>
  SHAPES.map((shape, i): [string, string, number, Shape, number] => [path, shape.name, cap, shape, i]),
);

describe('a body over its endpoint cap', () => {
  const host = listeningTestApp({ SENTRY_DSN: 'http://public@127.0.0.1:9/1', TRUST_PROXY: 'loopback' });

  it.each(CASES)('POST %s that %s: answered at once, one id, one line, connection closed', async (path, _name, cap, shape, i) => {
    const userAgent = `body-limit-${path}-${i}`;
    const headers = [
      'Host: 127.0.0.1',
      `User-Agent: ${userAgent}`,
      'Content-Type: application/json',
      `X-Forwarded-For: 203.0.113.${i + 1}`,
    ];
    const socket = await openSocket(host.url);
    const answered = collect(socket);
    socket.write(`POST ${path} HTTP/1.1\r\n${[...headers, ...shape.headers(cap)].join('\r\n')}\r\n\r\n${shape.body(cap)}`);
    // Resolves only when the server closes the connection: the unread rest does not hold it.
    const raw = await answered;
    const res = parseResponse(raw.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ''));
    expect(res.status).toBe(shape.status);
    expect(res.headers.connection).toBe('close');
    const reqId = res.headers['x-request-id']!;
    expect(res.body).toMatch(shape.status === 413 ? /too large/ : /Content-Encoding/);
    expect(res.body).not.toMatch(/\n\s+at /);
    await host.logs.waitFor((line) => line.reqId === reqId && isAccessLine(line));
    const lines = host.logs.lines.filter((line) => line.userAgent === userAgent || line.reqId === reqId);
    expect(lines).toEqual([expect.objectContaining({ reqId, status: shape.status, msg: 'request completed', reason: expect.any(String) })]);
  });

  it.each(ENDPOINTS)('POST %s with a body at the cap is read (not refused for size)', async (path, cap) => {
    const socket = await openSocket(host.url);
    const answered = collect(socket);
    const headers = [
      'Host: 127.0.0.1',
      'Content-Type: application/json',
      `Content-Length: ${cap}`,
      'Connection: close',
      'X-Forwarded-For: 203.0.113.200',
    ];
    socket.write(`POST ${path} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n${' '.repeat(cap)}`);
    const res = parseResponse(await answered);
    expect(res.status).toBe(400); // blank is no report and no envelope: read whole, then refused for what it is
  });
});
