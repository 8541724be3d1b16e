import type { NextFunction, Request, Response } from 'express';
import { isBot } from './is-bot.ts';
import type { PipeableStream } from 'react-dom/server';
import type { StreamOptions } from '../shared/page-seam.ts';
import type { Config } from './config.ts';
import type { FailureRecorder } from './errors/failures.ts';
import { ClientAbortError, StreamTimeoutError } from './errors/render-errors.ts';
import { asNextError, isInstance } from './errors/thrown-value.ts';

export const HTML_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  // HTML differs per request (nonce, runtime data, digests): never let a cache keep it.
  'Cache-Control': 'no-store',
};

/**
 * One deadline for everything a request does (loaders, then the render): its signal fires with
 * a StreamTimeoutError when the stream timeout passes, or a ClientAbortError when the client
 * leaves first. The timer is cleared however the response ends.
 */
export function requestDeadline(res: Response, ms: number): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new StreamTimeoutError(ms)), ms);
  // 'close' follows 'finish' too: clearing here drops the closure however the response ends.
  res.on('close', () => {
    clearTimeout(timer);
    if (!res.writableFinished) controller.abort(new ClientAbortError());
  });
  return controller.signal;
}

interface StreamDeps {
  config: Config;
  failures: FailureRecorder;
}

export interface StreamRequest {
  status: number;
  start(options: StreamOptions): PipeableStream;
  /** Ends the request's work; a fresh deadline from now when absent. */
  deadline?: AbortSignal;
  /** The shell failed: what to render instead (the failure in a route's boundary), if anything. */
  recover?(error: unknown): Omit<StreamRequest, 'deadline' | 'recover'> | undefined;
}

/**
 * After the deadline, how long the render may go on before it is aborted: loaders see their
 * signal fire at the deadline, and the sections whose values then reject still get to stream
 * their failure (React Router's `streamTimeout + 1000`).
 */
export const RENDER_ABORT_GRACE_MS = 1_000;

/**
 * Streams a React render into the response. People get the shell as soon as it is ready and
 * the rest as it resolves; crawlers get the complete page (React docs, "Crawlers and static
 * generation"). A render that outlives the deadline is aborted so a socket is never held
 * forever, and a client that leaves aborts its render at once.
 */
export function streamReact(deps: StreamDeps, req: Request, res: Response, next: NextFunction, job: StreamRequest): void {
  const waitForAll = isBot(req.get('user-agent'));
  const deadline = job.deadline ?? requestDeadline(res, deps.config.streamTimeoutMs);
  let retry: { original: unknown } | undefined;
  const run = ({ status, start }: Omit<StreamRequest, 'deadline' | 'recover'>) => {
    let shellDone = false;
    const send = () => {
      shellDone = true;
      if (res.destroyed || res.headersSent) return;
      res.status(status).set(HTML_HEADERS);
      // React writes whatever is ready in many small chunks at once: corked, they leave as one
      // packet with the headers instead of one write each.
      res.cork();
      stream.pipe(res);
      process.nextTick(() => res.uncork());
    };
    const stream = start({
      nonce: res.locals.cspNonce,
      onShellReady: waitForAll ? undefined : send,
      onAllReady: waitForAll ? send : undefined,
      onShellError(error) {
        // A retry that fails too is the same failure: the first one is answered, and logged once.
        if (retry !== undefined) return next(asNextError(retry.original));
        const instead = job.recover?.(error);
        if (instead === undefined) return next(asNextError(error));
        retry = { original: error };
        run(instead);
      },
      // Returns what React writes into the HTML ($RX) for the browser: the digest and its proof.
      onError(error) {
        if (isInstance(error, ClientAbortError)) return undefined;
        if (retry !== undefined && !shellDone) return undefined; // the retry's own shell failure: see onShellError
        return deps.failures.digestForPage(error, req, res);
      },
    });
    const abort = () => {
      if (isInstance(deadline.reason, ClientAbortError)) return stream.abort(deadline.reason);
      const timer = setTimeout(() => stream.abort(deadline.reason), RENDER_ABORT_GRACE_MS);
      res.once('close', () => clearTimeout(timer));
    };
    if (deadline.aborted) abort();
    else deadline.addEventListener('abort', abort, { once: true });
  };
  run(job);
}
