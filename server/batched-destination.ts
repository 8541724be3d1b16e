import type { Response } from 'express';

/**
 * What React streams a page into, in front of the response: each batch React writes reaches the
 * response as one write. React writes a batch as many views of at most 4 KB, then calls
 * `flush()` (flushCompletedQueues in react-dom's server build for Node); a page with one
 * streamed section is two batches and seven writes. Compressed, every write and every flush is
 * a trip to zlib's thread pool (`compression` writes each into its zlib stream): batched, the
 * compressed page took about 100 CPU µs less a request, a third of what compression cost it
 * (docs/performance.md, "Compression on the fly").
 *
 * The flush waits a microtask because React ends the page straight after its last flush: the
 * last batch then leaves with the end, in one trip instead of two. Backpressure holds: once
 * the response says it is full, writes answer false until it drains, and React waits.
 */
export function batchedDestination(res: Response): NodeJS.WritableStream {
  let batch: Uint8Array[] = [];
  let flushing = false;
  let full = false;
  const take = (): Buffer => {
    const chunk = Buffer.concat(batch);
    batch = [];
    return chunk;
  };
  const send = () => {
    flushing = false;
    if (batch.length === 0 || res.writableEnded || res.destroyed) return void (batch = []);
    full = !res.write(take());
    (res as Response & { flush?: () => void }).flush?.();
  };
  const destination = {
    write(chunk: Uint8Array | string) {
      batch.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      return !full;
    },
    flush() {
      if (flushing) return;
      flushing = true;
      queueMicrotask(send);
    },
    end() {
      res.end(take());
      return destination;
    },
    destroy(error?: Error) {
      res.destroy(error);
    },
    on(event: string, listener: (...args: unknown[]) => void) {
      if (event === 'drain') res.on('drain', () => ((full = false), listener()));
      else res.on(event, listener);
      return destination;
    },
  };
  return destination as unknown as NodeJS.WritableStream;
}
