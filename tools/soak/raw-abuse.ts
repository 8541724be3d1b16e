// Abusive clients that no HTTP library plays, on raw sockets (issue 18): one pipelines
// hundreds of requests per connection and never reads an answer; one sends what HTTP/1.1
// forbids or the host refuses (two Host lines, none, an unknown Expect, a report declaring a
// body far over its cap, control characters). Same measures as abuse.ts: requests, statuses,
// and what the log gained.
import { connect, type Socket } from 'node:net';
import { CLIENT_ERRORS_PATH } from '../../shared/runtime.ts';
import type { ServerLog } from '../harness/server-log.ts';
import { ABUSE_S, type Abuse } from './abuse.ts';

/** As in the measurement: 400 pipelined requests a connection, a few connections at once. */
const PIPELINED = 400;
const PIPELINING_CONNECTIONS = 4;
/** A script in a loop, as abuse.ts's clients. */
const HOSTILE_CONNECTIONS = 8;

const HOSTILE: { request: string; expect: number }[] = [
  { request: 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n', expect: 400 },
  { request: 'GET / HTTP/1.1\r\nAccept: text/html\r\n\r\n', expect: 400 },
  { request: 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: something-else\r\n\r\n', expect: 417 },
  {
    request: `POST ${CLIENT_ERRORS_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n{"kind":`,
    expect: 413,
  },
  { request: 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Evil: a\x01b\r\n\r\n', expect: 400 },
];

function open(base: string): Promise<Socket> {
  const { port, hostname } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** One raw exchange; the status of the first answer (0 when none came). Every refusal closes the connection. */
async function hostileShot(base: string, request: string): Promise<number> {
  const socket = await open(base);
  let raw = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => (raw += chunk));
  socket.on('error', () => {});
  socket.write(request);
  await new Promise((resolve) => socket.on('close', resolve));
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
}

/** A pipelined connection's last line comes within this once the client has left, or the shot is not waited for. */
const LAST_LINE_WAIT_MS = 5_000;

/**
 * Writes PIPELINED requests, reads none, and leaves once they are written; then waits for the
 * connection's last line (server/edge/connections.ts), so the client goes at the server's pace and
 * the next client's measure is not this one's backlog.
 */
async function pipelinedShot(base: string, logs: ServerLog, n: number): Promise<number> {
  const socket = await open(base);
  socket.pause();
  socket.on('error', () => {});
  const userAgent = `soak-pipelining-${n}`;
  const one = `GET /flood/${n} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: ${userAgent}\r\nAccept: text/html\r\n\r\n`;
  await new Promise((resolve) => socket.write(one.repeat(PIPELINED), resolve));
  socket.destroy();
  await logs.waitFor((line) => line.userAgent === userAgent && typeof line.unparsedBytes === 'number', LAST_LINE_WAIT_MS).catch(() => {});
  return 0; // nothing read: no status
}

async function measure(
  logs: ServerLog,
  name: string,
  connections: number,
  shot: (n: number) => Promise<{ status: number; requests: number }>,
) {
  const before = { lines: logs.count, bytes: logs.bytes };
  const started = performance.now();
  const deadline = started + ABUSE_S * 1000;
  const statuses: Record<string, number> = {};
  let requests = 0;
  let shots = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const result = await shot(shots++);
      requests += result.requests;
      statuses[result.status] = (statuses[result.status] ?? 0) + result.requests;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  // Lines of connections closed last are written as the server sees them close.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const seconds = (performance.now() - started) / 1000;
  return { name, requests, statuses, lines: logs.count - before.lines, bytes: logs.bytes - before.bytes, seconds } satisfies Abuse;
}

export const PIPELINING = 'pipelining (400 a connection, never read)';
export const HOSTILE_HEADERS = 'hostile headers';
/** Past 10 reports a minute the oversized report meets the rate limit first (429), before its body is looked at. */
export const HOSTILE_EXPECTED = new Set([...HOSTILE.map((h) => String(h.expect)), '429']);

export async function rawAbusiveClients(base: string, logs: ServerLog): Promise<Abuse[]> {
  const pipelining = await measure(logs, PIPELINING, PIPELINING_CONNECTIONS, async (n) => ({
    status: await pipelinedShot(base, logs, n),
    requests: PIPELINED,
  }));
  const hostile = await measure(logs, HOSTILE_HEADERS, HOSTILE_CONNECTIONS, async (n) => ({
    status: await hostileShot(base, HOSTILE[n % HOSTILE.length]!.request),
    requests: 1,
  }));
  return [pipelining, hostile];
}
