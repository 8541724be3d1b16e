import { describe, expect, it } from 'vitest';
import { CLIENT_ERRORS_PATH } from '../../shared/runtime.ts';
import { isAccessLine } from '../../shared/log-line.ts';
import { MAX_BODY_TIMEOUT_MS } from '../../server/config/config.ts';
import { SERVER_LIMITS } from '../../server/edge/http-server.ts';
import { listeningTestApp } from '../support/test-app.ts';
import { collect, openSocket, parseResponse } from '../support/raw-http.ts';

// A body that stalls, and a client that waits for `100 Continue` (RFC 9110 §10.1.1) before it
// sends one. A stalled body is answered 408 at BODY_TIMEOUT_MS under its own request id, with
// one access line naming method and path (server/edge/body-limit.ts); before, it ran to the 30 s
// request timeout, its own line said 200 "request aborted" and Node's 408 came under a second
// id with no method or path. The 100 goes out only once the host reads the body: a request
// refused from its headers gets its refusal alone.

const BODY_TIMEOUT_MS = 300;
// The host's endpoints, the fixture app's form (/board) and its navigation data (React Router's /board.data).
const ENDPOINTS = [CLIENT_ERRORS_PATH, '/monitoring', '/board', '/board.data'];
const CONTINUE = /^HTTP\/1\.1 100 Continue\r\n\r\n/;

function head(path: string, headers: string[]): string {
  return `POST ${path} HTTP/1.1\r\n${['Host: 127.0.0.1', ...headers].join('\r\n')}\r\n\r\n`;
}

describe('slow bodies and 100-continue', () => {
  const host = listeningTestApp({ SENTRY_DSN: 'http://public@127.0.0.1:9/1', BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS) });

  it('the body-read timeout ends before the request timeout can, whatever it is set to', () => {
    const { requestTimeoutMs, headersTimeoutMs, checkIntervalMs } = SERVER_LIMITS;
    expect(MAX_BODY_TIMEOUT_MS).toBeLessThanOrEqual(requestTimeoutMs - headersTimeoutMs - checkIntervalMs);
  });

  it.each(ENDPOINTS)('POST %s whose body stalls: one 408 under its own id, one line with method and path', async (path) => {
    const userAgent = `slow-body-${path}`;
    const socket = await openSocket(host.url);
    const answered = collect(socket);
    const headers = ['Content-Type: application/json', 'Content-Length: 100', `User-Agent: ${userAgent}`];
    socket.write(`${head(path, headers)}{"a":`);
    const res = parseResponse(await answered);
    expect(res.status).toBe(408);
    expect(res.headers.connection).toBe('close');
    expect(res.body).toMatch(/Request body timeout/);
    const reqId = res.headers['x-request-id']!;
    await host.logs.waitFor((line) => line.reqId === reqId && isAccessLine(line));
    const lines = host.logs.lines.filter((line) => line.userAgent === userAgent || line.reqId === reqId);
    expect(lines).toEqual([expect.objectContaining({ reqId, status: 408, method: 'POST', path: path.split('?')[0] })]);
  });

  it.each([
    ['another site', ['Origin: https://evil.example', 'Content-Type: application/json', 'Content-Length: 10'], 403],
    ['a declared 10 MB', ['Content-Type: application/json', 'Content-Length: 10000000'], 413],
    ['an unknown type', ['Content-Type: text/csv', 'Content-Length: 10'], 415],
    ['a compressed body', ['Content-Type: application/json', 'Content-Encoding: gzip', 'Content-Length: 10'], 415],
  ])('a write from %s that expects 100-continue gets its refusal, never a 100', async (_name, headers, status) => {
    const socket = await openSocket(host.url);
    const answered = collect(socket);
    socket.write(head('/board', [...headers, 'Expect: 100-continue']));
    const raw = await answered;
    expect(raw).not.toMatch(CONTINUE);
    expect(parseResponse(raw).status).toBe(status);
  });

  it('a write the host will read gets 100 Continue before it sends its body, then its answer', async () => {
    const socket = await openSocket(host.url);
    const answered = collect(socket);
    const body = 'name=Ada&message=Hello';
    const headers = [
      'Content-Type: application/x-www-form-urlencoded',
      `Content-Length: ${body.length}`,
      'Expect: 100-continue',
      'Connection: close',
    ];
    const continued = new Promise<void>((resolve) => socket.on('data', (chunk: string) => CONTINUE.test(chunk) && resolve()));
    socket.write(head('/board', headers));
    await continued;
    socket.write(body);
    const res = parseResponse((await answered).replace(CONTINUE, ''));
    expect(res.status).toBe(303);
  });
});
