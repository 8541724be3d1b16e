// Single loopback requests on fresh connections: whole bodies, and first-chunk timings.
import { request, type IncomingHttpHeaders } from 'node:http';

/** Nothing the bench fetches one at a time should take this long on loopback. */
const REQUEST_TIMEOUT_MS = 15_000;

export interface Fetched {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** ms from sending the request to the first body chunk, and to the end of the body. */
  firstChunkMs: number;
  totalMs: number;
}

export function fetchOnce(url: string, headers: Record<string, string> = {}): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstChunkMs = Number.NaN;
    const req = request(url, { headers, agent: false, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        if (chunks.length === 0) firstChunkMs = performance.now() - started;
        chunks.push(chunk);
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          firstChunkMs,
          totalMs: performance.now() - started,
        }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out after ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end();
  });
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
