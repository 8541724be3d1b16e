import type { NextFunction, Request, Response } from 'express';
import { isbot } from 'isbot';
import type { PipeableStream } from 'react-dom/server';
import type { ServerErrorPageProps, StreamOptions } from '../client/entry-server.tsx';
import type { RuntimeConfig } from '../shared/runtime.ts';
import type { Config } from './config.ts';
import type { FailureRecorder } from './errors/failures.ts';

/** What the server needs of client/entry-server.tsx (loaded through Vite in dev). */
export interface Renderer {
  renderPage(config: RuntimeConfig, options: StreamOptions): PipeableStream;
  renderErrorPage(props: ServerErrorPageProps, options: StreamOptions): PipeableStream;
}

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

interface StreamDeps {
  config: Config;
  failures: FailureRecorder;
}

/**
 * Streams a React render into the response. People get the shell as soon as it is ready and
 * the rest as it resolves; crawlers get the complete page (React docs, "Crawlers and static
 * generation"). A render that outlives the stream timeout is aborted so a socket is never held
 * forever, and a client that leaves aborts its render.
 */
export function streamReact(
  deps: StreamDeps,
  req: Request,
  res: Response,
  next: NextFunction,
  status: number,
  start: (options: StreamOptions) => PipeableStream,
): void {
  const waitForAll = isbot(req.get('user-agent'));
  let timer: NodeJS.Timeout | undefined;
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
      clearTimeout(timer);
      next(error);
    },
    // Returns the digest React writes into the HTML (data-dgst) for the browser to report.
    onError(error) {
      if (error instanceof ClientAbortError) return undefined;
      return deps.failures.record(error, req, res).digest;
    },
  });
  timer = setTimeout(() => stream.abort(new StreamTimeoutError(deps.config.streamTimeoutMs)), deps.config.streamTimeoutMs);
  // 'close' follows 'finish' too: clearing here drops the closure however the response ends.
  res.on('close', () => {
    clearTimeout(timer);
    if (!res.writableFinished) stream.abort(new ClientAbortError());
  });
}
