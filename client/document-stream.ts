// A page's React stream, from the renderer's side of the seam (shared/page-seam.ts): resolves
// with the response once the shell is ready (the whole page for crawlers), after one retry in
// the route's boundary if the shell fails, and aborts the render when the host says so.
import type { PipeableStream } from 'react-dom/server';
import type { OnError, PageAnswer, PageRequest, Recorded, StreamOptions } from '../shared/page-seam.ts';

export interface Attempt {
  status: number;
  start(options: StreamOptions): PipeableStream;
}

/** `retry`: the page again with the shell's failure in the nearest route boundary, when there is one. */
export function streamDocument(
  request: PageRequest,
  onError: OnError,
  first: Attempt,
  retry?: (failure: Recorded) => Attempt,
): Promise<PageAnswer> {
  return new Promise((resolve) => {
    let retried: { original: unknown } | undefined;
    const run = (attempt: Attempt) => {
      let shellDone = false;
      const ready = () => {
        shellDone = true;
        resolve({ type: 'document', status: attempt.status, body: stream });
      };
      const stream = attempt.start({
        // React writes a style resource only under its style nonce (shared/Document.tsx).
        nonce: { script: request.nonce, style: request.nonce },
        onShellReady: request.waitForAll ? undefined : ready,
        onAllReady: request.waitForAll ? ready : undefined,
        onShellError(error) {
          // A retry that fails too is the same failure: the first one is answered, and logged once.
          if (retried !== undefined) return resolve({ type: 'failed', error: retried.original });
          if (retry === undefined) return resolve({ type: 'failed', error });
          retried = { original: error };
          run(retry(onError(error, 'render')));
        },
        // What React writes into the HTML ($RX) for the browser: the digest and its proof.
        onError(error) {
          if (retried !== undefined && !shellDone) return undefined; // the retry's own shell failure: see onShellError
          return onError(error, 'render').pageDigest;
        },
      });
      const { renderSignal } = request;
      if (renderSignal.aborted) stream.abort(renderSignal.reason);
      else renderSignal.addEventListener('abort', () => stream.abort(renderSignal.reason), { once: true });
    };
    run(first);
  });
}
