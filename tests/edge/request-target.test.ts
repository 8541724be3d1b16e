import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listeningTestApp } from '../support/test-app.ts';

// Request lines as a client may send them, on a raw socket: whatever the target, the answer
// comes from our pipeline, or from Node's parser for what it rejects itself (`GET ?x`, CONNECT),
// and either way carries a request id and has an access line; never from Express's default
// handler (whose CSP is `default-src 'none'`).

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function send(url: string, requestLine: string): Promise<RawResponse> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let raw = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (raw += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...body] = raw.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body.join('\r\n\r\n') });
    });
    socket.write(`${requestLine}\r\nHost: 127.0.0.1\r\nAccept: text/html\r\nConnection: close\r\n\r\n`);
  });
}

describe('no request escapes the pipeline', () => {
  const host = listeningTestApp();

  it.each([
    ['GET http://[::1 HTTP/1.1', 400],
    ['GET http://[::1]:99999/ HTTP/1.1', 400],
    ['GET http:// HTTP/1.1', 400],
    ['GET http://exa%mple.com/ HTTP/1.1', 400],
    ['GET mailto:someone@example.com HTTP/1.1', 400],
    ['GET javascript:alert(1) HTTP/1.1', 400],
    ['GET example.com:443 HTTP/1.1', 400],
    ['GET ?x=1 HTTP/1.1', 400],
    ['CONNECT example.com:443 HTTP/1.1', 405],
    ['GET http://[::1]/no-such-page?token=secret HTTP/1.1', 404],
    ['GET http://example.com/no-such-page HTTP/1.1', 404],
    ['GET //evil.example/no-such-page HTTP/1.1', 404],
    ['OPTIONS * HTTP/1.1', 404],
    ['GET /%E0%A4%A HTTP/1.1', 400],
  ])("%s → %i, with a request id and an access line, never from Express's default handler", async (line, status) => {
    const res = await send(host.url, line);
    expect(res.status).toBe(status);
    const reqId = res.headers['x-request-id'];
    expect(reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['content-security-policy'] ?? '').not.toContain("default-src 'none'");
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).not.toMatch(/Cannot \w+|<pre>/);
    const access = host.logs.access(reqId!);
    expect(access).toMatchObject({ status });
    expect(JSON.stringify(host.logs.forRequest(reqId!))).not.toContain('secret');
  });

  it('a valid absolute-form target is served as its path (RFC 9112 §3.2.2)', async () => {
    const res = await send(host.url, 'GET http://127.0.0.1/healthz HTTP/1.1');
    expect(res.status).toBe(200);
    expect(res.body).toBe('ok');
  });
});
