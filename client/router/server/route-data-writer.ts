// The server's side of shared/route-data.ts, beside its reader (route-data-client.ts): a
// navigation's data as newline-delimited JSON, the head first, then one line per pending
// value as it settles. Past the deadline, what is still pending is that one failure.
import { PassThrough, type Readable } from 'node:stream';
import type { DataLine } from '../../../shared/route-data.ts';
import type { PendingValue, Settled } from '../both/deferred.ts';

export function dataBody(
  head: DataLine,
  pending: readonly PendingValue[],
  signal: AbortSignal,
  failed: (id: string, error: unknown) => Settled,
): Readable {
  const body = new PassThrough();
  const write = (line: DataLine) => void (body.writableEnded || body.write(`${JSON.stringify(line)}\n`));
  write(head);
  const waiting = new Set(pending.map((value) => value.id));
  const settled = pending.map(({ id, settled }) =>
    settled.then((line) => {
      if (!waiting.delete(id)) return;
      try {
        write(line);
      } catch (error) {
        // A value JSON cannot carry (a BigInt, a cycle) fails its own section, not the process.
        write(failed(id, error));
      }
    }),
  );
  const timedOut = new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
  void Promise.race([Promise.all(settled), timedOut]).then(() => {
    for (const id of waiting) write(failed(id, signal.reason));
    body.end();
  });
  return body;
}
