import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../server/observe/metrics.ts';
import { MAX_IN_FLIGHT_PER_CONNECTION } from '../../server/edge/connections.ts';
import { isAccessLine } from '../../shared/log-line.ts';
import { listeningTestApp, type TestApp } from '../support/test-app.ts';
import { openSocket } from '../support/raw-http.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';

// Slow readers and pipelined clients of compressed pages, across connections: at most
// COMPRESS_MAX_CONCURRENT responses hold an encoder at once (server/assets/compression-slots.ts);
// the others are answered plain, whole; a slot comes back when its response finishes or its
// client leaves, so the next answer is compressed again.

const SLOTS = 2;
/** Longer than any test here: the page's streamed part holds its response (and its encoder) open. */
const HOLD_MS = 15_000;

/** Pages fetched while the pipelined answers reach their headers: each is one render, a few ms. */
const MAX_TRIES = 50;

interface Opened {
  res: IncomingMessage;
  req: ClientRequest;
}

/** A page whose headers (and shell) have arrived while its body is still streaming; nothing read. */
function openSlowReader(url: string, userAgent: string, coding = 'br'): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}/fixture/slow?hold=${HOLD_MS}`,
      { headers: { 'Accept-Encoding': coding, 'User-Agent': userAgent }, agent: false },
      (res) => resolve({ res, req }),
    );
    req.on('error', () => {}); // the test aborts it
    req.once('error', reject);
    req.end();
  });
}

/** A whole page as its bytes came, not decoded. */
function fetchRaw(url: string, headers: Record<string, string>) {
  return new Promise<{ headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
    const req = httpRequest(`${url}/fixture/ada?hold=1`, { headers: { 'User-Agent': BROWSER_UA, ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Resolves once the server has logged `count` access lines from `userAgent`: their responses have closed. */
const closedFor = (host: TestApp, userAgent: string, count: number) =>
  host.logs.waitFor(() => host.logs.lines.filter((l) => isAccessLine(l) && l.userAgent === userAgent).length === count);

describe('responses compressing at once are bounded across connections', () => {
  const metrics = createMetrics();
  const host = listeningTestApp({ COMPRESS_MAX_CONCURRENT: String(SLOTS), LOG_LEVEL: 'info' }, { metrics });

  it('past the bound a page is sent plain and whole; once the slow readers leave, pages are compressed again', async () => {
    const userAgent = `${BROWSER_UA} slow-reader`;
    const slow = await Promise.all(Array.from({ length: SLOTS }, () => openSlowReader(host.url, userAgent)));
    for (const { res } of slow) expect(res.headers['content-encoding']).toBe('br');

    const plain = await fetchRaw(host.url, { 'Accept-Encoding': 'br, gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('Accept-Encoding');
    const text = plain.body.toString();
    expect(text).toContain('Hello from the fixture, ada');
    expect(text).toContain('LATER-PART-ARRIVED');
    expect(text.endsWith('</body></html>')).toBe(true);
    const counted = await metrics.registry.getSingleMetricAsString('http_responses_uncompressed_busy_total');
    expect(counted).toMatch(/^http_responses_uncompressed_busy_total 1$/m);

    for (const { req } of slow) req.destroy();
    await closedFor(host, userAgent, SLOTS);
    for (let i = 0; i < SLOTS + 1; i++) {
      const again = await fetchRaw(host.url, { 'Accept-Encoding': 'br' });
      expect(again.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(again.body).toString()).toContain('Hello from the fixture, ada');
    }
  });

  it('a slow reader that accepts no coding holds no slot', async () => {
    const userAgent = `${BROWSER_UA} identity-reader`;
    const identity = await Promise.all(Array.from({ length: SLOTS }, () => openSlowReader(host.url, userAgent, 'identity')));
    for (const { res } of identity) expect(res.headers['content-encoding']).toBeUndefined();
    const compressed = await fetchRaw(host.url, { 'Accept-Encoding': 'br' });
    expect(compressed.headers['content-encoding']).toBe('br');
    for (const { req } of identity) req.destroy();
    await closedFor(host, userAgent, SLOTS);
  });

  it('pipelined requests never read hold slots only until their connection closes', async () => {
    const userAgent = `${BROWSER_UA} pipeliner`;
    const one = `GET /fixture/piped?hold=${HOLD_MS} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: ${userAgent}\r\nAccept-Encoding: br\r\n\r\n`;
    const socket = await openSocket(host.url);
    socket.on('error', () => {});
    socket.pause(); // never reads a byte of the answers
    socket.write(one.repeat(MAX_IN_FLIGHT_PER_CONNECTION));
    // Every slot is soon held by the answers queued on that one connection: a page is sent plain.
    let plain = await fetchRaw(host.url, { 'Accept-Encoding': 'br' });
    for (let tries = 1; tries < MAX_TRIES && plain.headers['content-encoding'] !== undefined; tries++)
      plain = await fetchRaw(host.url, { 'Accept-Encoding': 'br' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    // ...and every one comes back when the client leaves (connections.ts closes the queued ones too).
    socket.destroy();
    await closedFor(host, userAgent, MAX_IN_FLIGHT_PER_CONNECTION);
    for (let i = 0; i < SLOTS + 1; i++)
      expect((await fetchRaw(host.url, { 'Accept-Encoding': 'br' })).headers['content-encoding']).toBe('br');
  });
});
