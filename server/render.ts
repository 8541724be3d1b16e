import type { NextFunction, Request, Response } from 'express';
import { isbot } from 'isbot';
import type { PipeableStream } from 'react-dom/server';
import type { StreamOptions } from '../shared/page-seam.ts';
import type { Config } from './config.ts';
import type { FailureRecorder } from './errors/failures.ts';

export type { Renderer } from '../shared/page-seam.ts';

/** The render outlived the stream timeout: pending boundaries are sent as client-rendered. */
export class StreamTimeoutError extends Error {
  constructor(ms: number) {
    super(`The render did not finish within the stream timeout of ${ms} ms`);
    this.name = 'StreamTimeoutError';
  }
}

/** The client went away; not a failure of ours, never logged as one. */
export class ClientAbortError extends Error {
  constructor() {
    super('The client closed the connection before the response was complete');
    this.name = 'ClientAbortError';
  }
}

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
 * Streams a React render into the response. People get the shell as soon as it is ready and
 * the rest as it resolves; crawlers get the complete page (React docs, "Crawlers and static
 * generation"). A render that outlives the deadline is aborted so a socket is never held
 * forever, and a client that leaves aborts its render.
 */
export function streamReact(deps: StreamDeps, req: Request, res: Response, next: NextFunction, job: StreamRequest): void {
  const waitForAll = isbot(req.get('user-agent'));
  const deadline = job.deadline ?? requestDeadline(res, deps.config.streamTimeoutMs);
  const run = ({ status, start }: Omit<StreamRequest, 'deadline' | 'recover'>, recover?: StreamRequest['recover']) => {
    const send = () => {
      if (res.destroyed || res.headersSent) return;
      res.status(status).set(HTML_HEADERS);
      // React writes whatever is ready in many small chunks at once: corked, they leave as one
      // packet with the headers instead of one write each.
      res.cork();
      stream.pipe(res);
      process.nextTick(() => res.uncork());
    };
    const stream = start({
      nonce: res.locals.cspNonce as string | undefined,
      onShellReady: waitForAll ? undefined : send,
      onAllReady: waitForAll ? send : undefined,
      onShellError(error) {
        const instead = recover?.(error);
        if (instead === undefined) next(error);
        else run(instead);
      },
      // Returns the digest React writes into the HTML for the browser to report.
      onError(error) {
        if (error instanceof ClientAbortError) return undefined;
        return deps.failures.record(error, req, res, 'render').digest;
      },
    });
    if (deadline.aborted) stream.abort(deadline.reason);
    else deadline.addEventListener('abort', () => stream.abort(deadline.reason), { once: true });
  };
  run(job, job.recover);
}
