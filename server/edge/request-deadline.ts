import type { Response } from 'express';
import { ClientAbortError, StreamTimeoutError } from '../failures/errors.ts';

/**
 * After the deadline, how long the render may go on before it is aborted: loaders see their
 * signal fire at the deadline, and the sections whose values then reject still get to stream
 * their failure (React Router's `streamTimeout + 1000`).
 */
export const RENDER_ABORT_GRACE_MS = 1_000;

export interface Deadline {
  /** What loaders get: fires with a StreamTimeoutError at the deadline, a ClientAbortError if the client leaves first. */
  signal: AbortSignal;
  /** Stops the render: the grace after the deadline, or at once when the client leaves. */
  renderSignal: AbortSignal;
}

/** The deadline's two signals and their timers; `done()` clears the timers, `gone()` stops both at once. */
function startDeadline(ms: number) {
  const loaders = new AbortController();
  const render = new AbortController();
  let grace: NodeJS.Timeout | undefined;
  const timer = setTimeout(() => {
    const reason = new StreamTimeoutError(ms);
    loaders.abort(reason);
    grace = setTimeout(() => render.abort(reason), RENDER_ABORT_GRACE_MS);
  }, ms);
  return {
    deadline: { signal: loaders.signal, renderSignal: render.signal },
    done() {
      clearTimeout(timer);
      clearTimeout(grace);
    },
    gone(reason: Error) {
      loaders.abort(reason);
      render.abort(reason);
    },
  };
}

/** One deadline for everything a request does (loaders, then the render); its timers are cleared however the response ends. */
export function requestDeadline(res: Response, ms: number): Deadline {
  const started = startDeadline(ms);
  // 'close' follows 'finish' too: clearing here drops the closures however the response ends.
  res.on('close', () => {
    started.done();
    if (!res.writableFinished) started.gone(new ClientAbortError());
  });
  return started.deadline;
}

/**
 * The same deadline for work no client waits on (a stored page's regeneration,
 * server/pages/page-cache.ts): `done()` clears its timers once the work ended.
 */
export function detachedDeadline(ms: number): Deadline & { done(): void } {
  const started = startDeadline(ms);
  return { ...started.deadline, done: started.done };
}
