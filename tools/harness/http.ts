// One request on a fresh connection, recorded as it arrives: the status, the body chunk by
// chunk (to see what streamed before what), whether it ended normally, and its timings.
import { request, type Agent, type IncomingHttpHeaders } from 'node:http';
import { StringDecoder } from 'node:string_decoder';

/** Nothing fetched one at a time from loopback should take this long. */
const REQUEST_TIMEOUT_MS = 15_000;

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** A "client" on another loopback address (127.0.0.x), for per-client limits behind a balancer. */
  localAddress?: string;
  /** Default: a fresh connection (no keep-alive), as each of these requests is measured alone. */
  agent?: Agent | false;
  /**
   * Resolve a body cut mid-way (a reset) with `complete: false` instead of rejecting: for load
   * tests that count them. Off by default, so no assertion on a body can pass on half of one.
   */
  allowCut?: boolean;
}

export interface Fetched {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as the socket delivered it, one entry per chunk, in order (UTF-8 decoded). */
  chunks: string[];
  body: string;
  /** The body's bytes, undecoded: for sizes and gzip. */
  bytes: Buffer;
  /** The body ended normally, not cut by a reset or an abort. */
  complete: boolean;
  /** ms from sending the request to the first body chunk (NaN when there was none), and to its end. */
  firstChunkMs: number;
  totalMs: number;
}

export function fetchOnce(url: string, options: RequestOptions = {}): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const { method = 'GET', headers, localAddress, agent = false } = options;
    const req = request(url, { method, headers, localAddress, agent, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const decoder = new StringDecoder('utf8');
      const chunks: string[] = [];
      const buffers: Buffer[] = [];
      let firstChunkMs = Number.NaN;
      res.on('data', (chunk: Buffer) => {
        if (buffers.length === 0) firstChunkMs = performance.now() - started;
        buffers.push(chunk);
        chunks.push(decoder.write(chunk));
      });
      // 'close' comes however the body ends; a body cut by a reset is reported as cut (allowCut).
      res.on('error', () => undefined);
      res.on('close', () => {
        if (!res.complete && options.allowCut !== true)
          return reject(new Error(`${method} ${url}: the body was cut after ${buffers.length} chunks`));
        const rest = decoder.end();
        if (rest) chunks.push(rest);
        const bytes = Buffer.concat(buffers);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          chunks,
          body: chunks.join(''),
          bytes,
          complete: res.complete,
          firstChunkMs,
          totalMs: performance.now() - started,
        });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out after ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

export interface OpenStream {
  /** The body received up to the first chunk (or up to `until`, when given). */
  first: string;
  /** Whether the response was still open then: what came first came before the rest was ready. */
  open: boolean;
  /** The rest of the response, once it ends. */
  rest: Promise<Pick<Fetched, 'status' | 'headers' | 'chunks' | 'body'>>;
  /** Hang up, as a client that leaves mid-stream does. */
  destroy(): void;
}

/**
 * Starts a GET and resolves with its first chunk, or once the body so far contains `until`
 * (React writes a shell in several chunks), leaving the response open; a response that ends
 * first resolves with all of it and `open: false`.
 */
export function openStream(url: string, headers: Record<string, string> = {}, until?: string): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false }, (res) => {
      const chunks: string[] = [];
      res.setEncoding('utf8');
      const rest = new Promise<Awaited<OpenStream['rest']>>((done, fail) => {
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, chunks, body: chunks.join('') }));
        res.on('error', fail);
        req.on('error', fail);
      });
      rest.catch(() => {}); // a test that destroys the stream does not await the rest
      const settle = (open: boolean) => resolve({ first: chunks.join(''), open, rest, destroy: () => req.destroy() });
      res.on('data', (chunk: string) => {
        chunks.push(chunk);
        if (until === undefined || chunks.join('').includes(until)) settle(true);
      });
      res.on('end', () => settle(false));
    });
    req.on('error', reject);
    req.end();
  });
}
