// The server's memory and open descriptors, sampled once it has gone quiet: the soak compares
// the sample after warm-up with the later ones to find leaks.
import { memoryMb, openFds } from '../bench/proc.ts';
import { sleep } from '../harness/net.ts';
import type { RunningServer } from '../harness/spawn.ts';
import { liveHeapMb } from './live-heap.ts';

/** Idle time before memory and descriptors are sampled: sockets close, timers fire. */
export const SETTLE_MS = 2_000;

export interface Sample {
  /** What a full collection leaves (./live-heap.ts): the leak measure. NaN for a server started without the inspector. */
  heapMb: number;
  /** Resident memory right after that collection: shown beside it, not judged (V8 sizes it on its own schedule). */
  rssMb: number;
  fds: number;
}

export async function settledSample(server: RunningServer, settleMs = SETTLE_MS): Promise<Sample> {
  await sleep(settleMs);
  // A server that died has nothing to sample; the checks then fail on NaN.
  if (!server.isRunning()) return { heapMb: Number.NaN, rssMb: Number.NaN, fds: Number.NaN };
  const fds = openFds(server.pid);
  const heapMb = await liveHeapMb(server.stderr());
  return { heapMb, rssMb: memoryMb(server.pid, 'VmRSS'), fds };
}
