import { connect, type Socket } from 'node:net';

// HTTP/1.1 by hand, for what no client library sends: duplicate or missing Host, odd Expect,
// pipelined requests, a body that never ends. Every exchange ends on the socket's 'close'.

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function openSocket(url: string): Promise<Socket> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server wrote, once it closed the connection (or the client did: `end`). */
export function collect(socket: Socket): Promise<string> {
  let raw = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (raw += chunk));
  return new Promise((resolve) => {
    socket.on('error', () => {}); // a reset after the answer: what was read is the result
    socket.on('close', () => resolve(raw));
  });
}

/** The first response of a raw exchange. */
export function parseResponse(raw: string): RawResponse {
  const [head = '', ...body] = raw.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: body.join('\r\n\r\n') };
}

/** The status of every response on a connection, in order (a body sized by Content-Length ends without CRLF). */
export function statusesIn(raw: string): number[] {
  return [...raw.matchAll(/HTTP\/1\.1 (\d{3}) [A-Z]/g)].map((match) => Number(match[1]));
}

/** Writes `bytes`, then reads until the server closes. */
export async function exchange(url: string, bytes: string | Buffer): Promise<string> {
  const socket = await openSocket(url);
  const result = collect(socket);
  socket.write(bytes);
  return result;
}
