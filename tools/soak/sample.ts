// The server's memory and open descriptors, sampled once it has gone quiet: the soak compares
// the sample after warm-up with the one at the end to find leaks.
import { memoryMb, openFds } from '../bench/proc.ts';
import { sleep } from '../harness/net.ts';
import type { RunningServer } from '../harness/spawn.ts';

/** Idle time before memory and descriptors are sampled: sockets close, timers fire. */
export const SETTLE_MS = 2_000;

export interface Sample {
  rssMb: number;
  fds: number;
}

export async function settledSample(server: RunningServer, settleMs = SETTLE_MS): Promise<Sample> {
  await sleep(settleMs);
  // A server that died has nothing to sample; the checks then fail on NaN.
  if (!server.isRunning()) return { rssMb: Number.NaN, fds: Number.NaN };
  return { rssMb: memoryMb(server.pid, 'VmRSS'), fds: openFds(server.pid) };
}
