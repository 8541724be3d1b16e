import type { Response } from 'express';

/**
 * What React streams a page into, in front of the response: each batch React writes reaches the
 * response as one write. React writes a batch as many views of at most 4 KB (and long strings
 * whole), then calls `flush()` (flushCompletedQueues in react-dom's server build for Node); a
 * page with one streamed section is two batches and seven writes. Compressed, every write and
 * every flush is a trip to zlib's thread pool (`compression` writes each into its zlib stream):
 * batched, the compressed page took about 100 CPU µs less a request, a third of what compression
 * cost it (docs/performance.md, "Compression on the fly").
 *
 * The flush waits a microtask because React ends the page straight after its last flush: the
 * last batch then leaves with the end, in one trip instead of two.
 *
 * Backpressure is what piping into the response gave: a write answers false once the response
 * is full or the batch has grown past the response's high-water mark, and React then stops
 * between sections until a drain. React writes a section whole, so a batch outgrows the mark by
 * at most one section.
 */
export function batchedDestination(res: Response): NodeJS.WritableStream {
  let batch: Uint8Array[] = [];
  let batchBytes = 0;
  let flushing = false;
  /** The response said it was full: its own 'drain' comes. */
  let full = false;
  /** React was told to stop and waits for a drain. */
  let waiting = false;
  let resume: (() => void) | undefined;

  const take = (): Buffer => {
    const chunk = Buffer.concat(batch, batchBytes);
    batch = [];
    batchBytes = 0;
    return chunk;
  };
  const gone = () => res.writableEnded || res.destroyed;
  const drained = () => {
    full = false;
    if (!waiting) return;
    waiting = false;
    resume?.();
  };
  const send = () => {
    flushing = false;
    if (gone()) return void take();
    if (batchBytes === 0) return;
    try {
      full = !res.write(take());
      (res as Response & { flush?: () => void }).flush?.();
    } catch (error) {
      // Outside React's own try now (a microtask): a write that throws ends this response only.
      return void res.destroy(error as Error);
    }
    // The batch, not the response, made React stop: nothing else would wake it.
    if (!full) drained();
  };
  const destination = {
    write(chunk: Uint8Array | string) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      batch.push(bytes);
      batchBytes += bytes.byteLength;
      if (!full && batchBytes < res.writableHighWaterMark) return true;
      waiting = true;
      return false;
    },
    flush() {
      if (flushing) return;
      flushing = true;
      queueMicrotask(send);
    },
    end() {
      if (gone()) return destination;
      if (batchBytes === 0) res.end();
      else res.end(take());
      return destination;
    },
    destroy(error?: Error) {
      res.destroy(error);
    },
    on(event: string, listener: () => void) {
      if (event !== 'drain') res.on(event, listener);
      else {
        resume = listener;
        res.on('drain', drained);
      }
      return destination;
    },
  };
  return destination as unknown as NodeJS.WritableStream;
}
