import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../server/observe/metrics.ts';
import { MAX_IN_FLIGHT_PER_CONNECTION } from '../../server/edge/connections.ts';
import { isAccessLine, type LogLine } from '../../shared/log-line.ts';
import { listeningTestApp, type TestApp } from '../support/test-app.ts';
import { collect, exchange, openSocket, statusesIn } from '../support/raw-http.ts';

// Pipelined requests (RFC 9112 §9.3.2) from clients that read their answers and from clients
// that never do: one connection gets at most MAX_IN_FLIGHT_PER_CONNECTION requests served at a
// time; past that it is ended once those are written. Every request the server parsed has one
// access line, and the connection's last line counts the bytes it never parsed.

/** Node's gc without --expose-gc (vitest's workers lack it): the flag, set at run time. */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

/** The attack of the issue: 10 connections × 400 pipelined requests, never read. */
const CONNECTIONS = 10;
const PIPELINED = 400;
/** Before the bound, the attack left 121 MB more heap after the clients closed; after, about 5. */
const HEAP_GROWTH_BOUND_MB = 20;
const PATHS = ['/', '/no-such-page', '/products/1', '/%E0%A4%A'];

function request(path: string, userAgent: string, extra = ''): string {
  return `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: ${userAgent}\r\nAccept: text/html\r\n${extra}\r\n`;
}

const linesOf = (host: TestApp, userAgent: string): LogLine[] =>
  host.logs.lines.filter((l) => isAccessLine(l) && l.userAgent === userAgent);

describe('pipelined requests are bounded per connection', () => {
  const host = listeningTestApp({ LOG_LEVEL: 'info' }, { metrics: createMetrics() });

  it.each([1, 2, 5, MAX_IN_FLIGHT_PER_CONNECTION, MAX_IN_FLIGHT_PER_CONNECTION + 1, 40])(
    '%i pipelined requests read to the end: up to the bound are served, the rest logged as unserved',
    async (depth) => {
      const userAgent = `pipeline-reader-${depth}`;
      const requests = Array.from({ length: depth }, (_, i) =>
        request(PATHS[i % PATHS.length]!, userAgent, i === depth - 1 ? 'Connection: close\r\n' : ''),
      );
      const raw = await exchange(host.url, requests.join(''));
      const served = Math.min(depth, MAX_IN_FLIGHT_PER_CONNECTION);
      const expected = Array.from({ length: served }, (_, i) => [200, 404, 404, 400][i % PATHS.length]);
      expect(statusesIn(raw)).toEqual(expected);
      await host.logs.waitFor(() => linesOf(host, userAgent).length === depth);
      const lines = linesOf(host, userAgent);
      expect(lines.filter((l) => l.route !== 'pipelining').map((l) => l.status)).toEqual(expected);
      const unserved = lines.filter((l) => l.route === 'pipelining');
      expect(unserved).toHaveLength(depth - served);
      for (const line of unserved) expect(line).toMatchObject({ status: 503, msg: 'request aborted', reqId: expect.any(String) });
      if (unserved.length > 0) expect(unserved.at(-1)!.unparsedBytes).toBe(0); // one write, one read: all parsed
      expect(new Set(lines.map((l) => l.reqId)).size).toBe(depth);
    },
  );

  it(`${CONNECTIONS} connections × ${PIPELINED} pipelined requests never read, then closed: every byte is accounted for, and the heap returns`, async () => {
    for (let i = 0; i < 5; i++) await exchange(host.url, request('/', 'warm-up', 'Connection: close\r\n'));
    const before = heapMb();
    // A padding header makes each connection's requests span several reads of the parser.
    const padding = `X-Padding: ${'p'.repeat(200)}\r\n`;
    const sent = await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, c) => {
        const userAgent = `pipeline-never-reads-${c}`;
        const one = request(PATHS[c % PATHS.length]!, userAgent, padding);
        const socket = await openSocket(host.url);
        socket.pause(); // never reads a byte of the answers
        await new Promise<void>((resolve) => socket.write(one.repeat(PIPELINED), () => resolve()));
        return { userAgent, size: Buffer.byteLength(one), socket };
      }),
    );
    // The server stops parsing at the bound; the client leaves without reading anything.
    for (const { userAgent } of sent) await host.logs.waitFor((l) => l.userAgent === userAgent && l.route === 'pipelining');
    await Promise.all(sent.map(({ socket }) => Object.assign(collect(socket), socket.destroy())));
    for (const { userAgent, size } of sent) {
      const last = await host.logs.waitFor((l) => l.userAgent === userAgent && typeof l.unparsedBytes === 'number');
      const lines = linesOf(host, userAgent);
      expect(lines.at(-1)).toBe(last);
      expect(lines.filter((l) => l.route !== 'pipelining')).toHaveLength(MAX_IN_FLIGHT_PER_CONNECTION);
      // What was parsed has a line each; what was not is counted; at most one request was cut in two.
      const accounted = lines.length * size + (last.unparsedBytes as number);
      expect(accounted).toBeLessThanOrEqual(PIPELINED * size);
      expect(accounted).toBeGreaterThan((PIPELINED - 1) * size);
    }
    expect(heapMb() - before).toBeLessThan(HEAP_GROWTH_BOUND_MB);
  });
});
