// The server's memory and open descriptors, sampled once it has gone quiet: the soak compares
// the sample after warm-up with the one at the end to find leaks.
import { memoryMb, openFds } from '../bench/proc.ts';
import { sleep } from '../harness/net.ts';
import type { RunningServer } from '../harness/spawn.ts';

/** Idle time before memory and descriptors are sampled: sockets close, timers fire. */
export const SETTLE_MS = 2_000;
/**
 * Then memory is read for this long and its lowest figure kept: V8 gives a heap back on its own
 * schedule, seconds after allocation slows (its memory reducer), so one reading measured when
 * the last collection ran more than what the process holds. A leak is held through all of them.
 */
export const RSS_WINDOW_MS = 8_000;
const RSS_EVERY_MS = 500;

export interface Sample {
  rssMb: number;
  fds: number;
}

/** `rssWindowMs`: 0 reads memory once (the suite's short soak, whose traffic is small). */
export async function settledSample(server: RunningServer, settleMs = SETTLE_MS, rssWindowMs = RSS_WINDOW_MS): Promise<Sample> {
  await sleep(settleMs);
  // A server that died has nothing to sample; the checks then fail on NaN.
  if (!server.isRunning()) return { rssMb: Number.NaN, fds: Number.NaN };
  const fds = openFds(server.pid);
  let rssMb = memoryMb(server.pid, 'VmRSS');
  for (let waited = 0; waited < rssWindowMs && server.isRunning(); waited += RSS_EVERY_MS) {
    await sleep(RSS_EVERY_MS);
    rssMb = Math.min(rssMb, memoryMb(server.pid, 'VmRSS'));
  }
  return { rssMb, fds };
}
