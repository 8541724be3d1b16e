// The server's live heap: what a full garbage collection leaves, read through the inspector the
// soak opens on loopback (`--inspect=127.0.0.1:0`, https://nodejs.org/api/cli.html#--inspecthostport).
// RSS is no measure of a leak: V8 grows its heap for a burst and gives it back on its own
// schedule. After 15 s of traffic, four rounds of the abusive clients and 15 s of traffic again,
// this machine read RSS 331 → 324, 346, 340, 345 → 322 MB, with nothing held; a live heap after
// a collection moves only with what the process keeps.

/** Node's inspector writes these lines on stderr when it listens, is attached and lets go. */
const INSPECTOR_LINE = /^(Debugger (listening on|attached|ending on)|For help, see: )/;

/** The node arguments that open the inspector on a free loopback port. */
export const INSPECT_ARGS = ['--inspect=127.0.0.1:0'] as const;

/** stderr without the inspector's own lines: the soak's "nothing on stderr" is about the server. */
export function withoutInspectorLines(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => !INSPECTOR_LINE.test(line))
    .join('\n')
    .trim();
}

/** A generous bound on connecting, and on a collection of a few hundred MB; past it the sample is NaN and its check fails. */
const CALL_TIMEOUT_MS = 20_000;

/** `promise`, or a rejection saying `what` took too long; the timer is cleared either way. */
async function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing in ${CALL_TIMEOUT_MS} ms`)), CALL_TIMEOUT_MS)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Collects garbage in the server and returns what is left, in MB: V8's used heap plus the
 * ArrayBuffers' backing stores (Buffers, sockets' data), both from Runtime.getHeapUsage
 * (https://chromedevtools.github.io/devtools-protocol/v8/Runtime/#method-getHeapUsage). NaN, and
 * why on stderr, when it cannot be read: the check then fails rather than pass on nothing.
 */
export async function liveHeapMb(stderr: string): Promise<number> {
  const url = /ws:\/\/127\.0\.0\.1:\d+\/[\w-]+/.exec(stderr)?.[0];
  if (url === undefined) return Number.NaN;
  const socket = new WebSocket(url);
  try {
    await within(
      new Promise((resolve, reject) => {
        socket.addEventListener('open', resolve, { once: true });
        socket.addEventListener('error', () => reject(new Error(`cannot reach the inspector at ${url}`)), { once: true });
      }),
      'connecting to the inspector',
    );
    const pending = new Map<number, (result: Record<string, number>) => void>();
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, number> };
      if (message.id !== undefined) pending.get(message.id)?.(message.result ?? {});
    });
    let lastId = 0;
    const call = (method: string) =>
      within(
        new Promise<Record<string, number>>((resolve) => {
          const id = ++lastId;
          pending.set(id, resolve);
          socket.send(JSON.stringify({ id, method }));
        }),
        method,
      );
    // Twice: what the first collection frees may let go of what only weak references held.
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    const { usedSize, backingStorageSize } = await call('Runtime.getHeapUsage');
    if (usedSize === undefined || backingStorageSize === undefined)
      throw new Error('Runtime.getHeapUsage gave no usedSize or backingStorageSize');
    return (usedSize + backingStorageSize) / 2 ** 20;
  } catch (error) {
    console.error(`soak: the live heap was not read: ${(error as Error).message}`);
    return Number.NaN;
  } finally {
    socket.close();
  }
}
