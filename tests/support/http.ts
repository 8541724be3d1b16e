import { request, type IncomingHttpHeaders } from 'node:http';

export interface ChunkedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as the socket delivered it, one entry per chunk, in order. */
  chunks: string[];
  body: string;
}

/** A GET that records the body chunk by chunk, to see what streamed before what. */
export function getChunks(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<ChunkedResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: string[] = [];
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, chunks, body: chunks.join('') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Starts a GET and resolves with the first chunk, leaving the response open. */
export function openStream(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ first: string; rest: Promise<ChunkedResponse>; destroy(): void }>((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: string[] = [];
      res.setEncoding('utf8');
      const rest = new Promise<ChunkedResponse>((done, fail) => {
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, chunks, body: chunks.join('') }));
        res.on('error', fail);
        req.on('error', fail);
      });
      rest.catch(() => {});
      res.once('data', (chunk: string) => resolve({ first: chunk, rest, destroy: () => req.destroy() }));
      res.on('data', (chunk: string) => chunks.push(chunk));
    });
    req.on('error', reject);
    req.end();
  });
}
