import { describe, expect, it } from 'vitest';
import { listeningTestApp } from '../support/test-app.ts';
import { exchange, parseResponse } from '../support/raw-http.ts';

// Requests that break HTTP/1.1's message rules, which Node would answer itself without a word
// in our log (a missing Host, an unsupported Expect) or let through (two Host lines), and what
// its parser rejects: each is a clear 4xx with a request id, a plain-text reason and no stack,
// closes the connection, and has exactly one access line with that id and status.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const msg = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;

/** [name, raw request, status, route, reason contains]. */
const REFUSED: [string, string, number, string, string][] = [
  ...['GET /', 'HEAD /', 'GET /healthz', 'POST /api/client-errors', 'DELETE /no-such-page', 'OPTIONS *'].map(
    (line): [string, string, number, string, string] => [
      `${line} without Host`,
      msg([`${line} HTTP/1.1`, 'Accept: text/html']),
      400,
      'http-host',
      'no Host header',
    ],
  ),
  ['two identical Host lines', msg(['GET / HTTP/1.1', 'Host: 127.0.0.1', 'Host: 127.0.0.1']), 400, 'http-host', '2 Host header lines'],
  ['two different Host lines', msg(['GET / HTTP/1.1', 'Host: 127.0.0.1', 'Host: evil.example']), 400, 'http-host', '2 Host header lines'],
  ['Host lines in other cases', msg(['GET / HTTP/1.1', 'host: 127.0.0.1', 'HOST: evil.example']), 400, 'http-host', '2 Host header lines'],
  ['three Host lines', msg(['GET / HTTP/1.1', 'Host: a', 'Host: b', 'hOsT: c']), 400, 'http-host', '3 Host header lines'],
  ['two Host lines on HTTP/1.0', msg(['GET / HTTP/1.0', 'Host: a', 'Host: b']), 400, 'http-host', '2 Host header lines'],
  ['two Host lines on /healthz', msg(['GET /healthz HTTP/1.1', 'Host: a', 'Host: a']), 400, 'http-host', '2 Host header lines'],
  ['an empty Host line beside one', msg(['GET / HTTP/1.1', 'Host:', 'Host: 127.0.0.1']), 400, 'http-host', '2 Host header lines'],
  ...['nothing-we-know', '200-ok', '100-continue-please', 'foo=bar', '100-continue, foo', 'x'.repeat(300)].map(
    (value): [string, string, number, string, string] => [
      `Expect: ${value.slice(0, 30)}`,
      msg(['POST /api/client-errors HTTP/1.1', 'Host: 127.0.0.1', `Expect: ${value}`, 'Content-Length: 0']),
      417,
      'http-expect',
      'unsupported Expect',
    ],
  ),
  ['Expect and no Host', msg(['GET / HTTP/1.1', 'Expect: foo']), 400, 'http-host', 'no Host header'],
  ['Expect and two Hosts', msg(['GET / HTTP/1.1', 'Host: a', 'Host: b', 'Expect: foo']), 400, 'http-host', '2 Host header lines'],
  ...['\x01', '\x7f', '\x00', '\x1b[31m'].map((control): [string, string, number, string, string] => [
    `a header value with ${JSON.stringify(control)}`,
    msg(['GET / HTTP/1.1', 'Host: 127.0.0.1', `X-Evil: a${control}b`]),
    400,
    'http-parser',
    'rejected by the HTTP parser',
  ]),
  [
    'a control character in a header name',
    msg(['GET / HTTP/1.1', 'Host: 127.0.0.1', 'X-E\x01vil: a']),
    400,
    'http-parser',
    'rejected by the HTTP parser',
  ],
  ['a bare LF line ending', 'GET / HTTP/1.1\nHost: 127.0.0.1\n\n', 400, 'http-parser', 'rejected by the HTTP parser'],
];

/** Requests near the rule that are fine: answered by the app as usual. */
const SERVED: [string, string, number][] = [
  ['HTTP/1.0 without Host', msg(['GET /healthz HTTP/1.0']), 200],
  ['one Host line', msg(['GET /healthz HTTP/1.1', 'Host: 127.0.0.1', 'Connection: close']), 200],
  ['Expect: 100-continue', msg(['GET /healthz HTTP/1.1', 'Host: 127.0.0.1', 'Expect: 100-continue', 'Connection: close']), 200],
  [
    'Expect: 100-Continue (case-insensitive)',
    msg(['GET /healthz HTTP/1.1', 'Host: 127.0.0.1', 'Expect: 100-Continue', 'Connection: close']),
    200,
  ],
  ['Expect on HTTP/1.0 (ignored, RFC 9110 §10.1.1)', msg(['GET /healthz HTTP/1.0', 'Expect: foo']), 200],
];

describe('protocol refusals: answered by us, with an id and one access line', () => {
  const host = listeningTestApp();

  it.each(REFUSED)('%s → %i', async (_name, raw, status, route, reason) => {
    const res = parseResponse(await exchange(host.url, raw));
    expect(res.status).toBe(status);
    const reqId = res.headers['x-request-id']!;
    expect(reqId).toMatch(UUID);
    expect(res.headers).toMatchObject({ connection: 'close', 'cache-control': 'no-store', 'content-type': 'text/plain; charset=utf-8' });
    if (!raw.startsWith('HEAD')) expect(res.body).toContain(reason);
    expect(res.body).not.toMatch(/\n\s+at |<pre>|Cannot \w+/);
    await host.logs.waitFor((line) => line.reqId === reqId);
    const lines = host.logs.forRequest(reqId);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request completed', status, route, reason: expect.stringContaining(reason) });
  });

  it.each(SERVED)('%s → %i from the app', async (_name, raw, status) => {
    const text = await exchange(host.url, raw);
    const res = parseResponse(text.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ''));
    expect(res.status).toBe(status);
    expect(host.logs.access(res.headers['x-request-id']!)).toMatchObject({ status, path: '/healthz' });
  });
});
