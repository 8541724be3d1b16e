import type { ServerResponse } from 'node:http';

// How many responses may be compressing at once, across every connection. Each one holds an
// encoder (brotli's or zlib's state and window, in native memory) and the page it is fed while
// its client does not read; server/edge/connections.ts bounds what one connection holds, nothing
// else bounds what all of them hold together. A response that finds every slot taken is sent
// plain: the same bytes, uncompressed. Measured in docs/performance.md, "Compression under
// abusive clients".

export interface CompressionSlots {
  /** Takes a slot for `res` until it finishes or closes; false when every slot is taken. */
  take(res: ServerResponse): boolean;
  /** Gives `res`'s slot back early (it was not compressed after all); nothing if it holds none. */
  give(res: ServerResponse): void;
  /** Slots held now. */
  readonly inUse: number;
}

export function createCompressionSlots(max: number): CompressionSlots {
  const holders = new Set<ServerResponse>();

  function give(res: ServerResponse): void {
    if (!holders.delete(res)) return;
    res.removeListener('finish', onDone);
    res.removeListener('close', onDone);
  }

  // 'finish': the last byte went to the socket, the encoder has ended. 'close': the client left
  // first (server/edge/connections.ts emits it for the responses queued behind the one it held).
  function onDone(this: ServerResponse): void {
    give(this);
  }

  return {
    take(res) {
      if (holders.has(res)) return true;
      if (holders.size >= max || res.writableFinished || res.destroyed) return false;
      holders.add(res);
      res.once('finish', onDone);
      res.once('close', onDone);
      return true;
    },
    give,
    get inUse() {
      return holders.size;
    },
  };
}
