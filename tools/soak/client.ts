// One soak request: its status, request id, digests and whether its body arrived whole.
import { request, type Agent } from 'node:http';
import { digestsIn } from '../harness/digests.ts';
import type { Kind } from './mix.ts';

export type Phase = 'warm-up' | 'main' | 'drain';

export interface Outcome {
  kind: Kind;
  phase: Phase;
  status?: number;
  reqId?: string;
  digests: string[];
  /** The body arrived to its end (for a disconnecting client: its first chunk did). */
  complete: boolean;
  /** An HTML body that ends with </html>. */
  wholeDocument: boolean;
  /** A transport error (refused, reset, timeout); `status` says whether headers came first. */
  error?: string;
  ms: number;
}

/** Nothing in the mix takes a second; a response this late is a hang, recorded as an error. */
const REQUEST_TIMEOUT_MS = 10_000;

const isText = (type: string | undefined) => type?.startsWith('text/html') === true || type?.startsWith('application/json') === true;

export function send(base: string, kind: Kind, phase: Phase, agent: Agent | false, onHeaders?: () => void): Promise<Outcome> {
  const started = performance.now();
  const outcome: Outcome = { kind, phase, digests: [], complete: false, wholeDocument: false, ms: 0 };
  return new Promise((resolve) => {
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      if (error && !outcome.complete) outcome.error = error.message || (error as NodeJS.ErrnoException).code;
      outcome.ms = performance.now() - started;
      resolve(outcome);
    };
    const headers = kind.method === 'POST' ? { ...kind.headers, 'content-length': '0' } : kind.headers;
    const req = request(base + kind.path, { method: kind.method, headers, agent, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      outcome.status = res.statusCode;
      outcome.reqId = res.headers['x-request-id'] as string | undefined;
      onHeaders?.();
      const type = res.headers['content-type'];
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (isText(type)) body += chunk;
        if (kind.disconnect) {
          outcome.complete = true;
          req.destroy();
          finish();
        }
      });
      res.on('end', () => {
        outcome.complete = true;
        outcome.digests = digestsIn(body, type);
        outcome.wholeDocument = type?.startsWith('text/html') === true && body.trimEnd().endsWith('</html>');
        finish();
      });
      res.on('error', finish);
      // 'close' without 'end': the connection went before the body was whole.
      res.on('close', () => finish(new Error('connection closed before the end of the body')));
    });
    req.on('timeout', () => req.destroy(new Error(`timed out after ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', finish);
    req.end();
  });
}
