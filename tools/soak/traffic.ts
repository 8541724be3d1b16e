// Concurrent clients working through the mix, round-robin, until time or count runs out.
import { Agent } from 'node:http';
import { send, type Outcome, type Phase } from './client.ts';
import { rounds, type Kind } from './mix.ts';

export interface TrafficOptions {
  base: string;
  mix: Kind[];
  phase: Phase;
  concurrency: number;
  durationMs: number;
  /** A hard cap on requests, whatever the clock says. */
  maxRequests: number;
  /** Keep-alive connections (normal traffic), or a new connection per request. */
  keepAlive: boolean;
  /** A client whose request fails before any response stops (during a drain). */
  stopOnRefusal?: boolean;
  /** Stop early, e.g. once the server has exited. */
  stopWhen?: () => boolean;
}

export async function runTraffic(options: TrafficOptions): Promise<Outcome[]> {
  const schedule = rounds(options.mix);
  const agent = options.keepAlive ? new Agent({ keepAlive: true, maxSockets: options.concurrency }) : false;
  const deadline = performance.now() + options.durationMs;
  const outcomes: Outcome[] = [];
  let issued = 0;
  const more = () => performance.now() < deadline && issued < options.maxRequests && !options.stopWhen?.();

  const worker = async () => {
    while (more()) {
      const kind = schedule[issued++ % schedule.length]!;
      const outcome = await send(options.base, kind, options.phase, agent);
      outcomes.push(outcome);
      if (options.stopOnRefusal && outcome.status === undefined) return;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  // Close our side of every kept-alive connection, so the server's descriptors can settle.
  if (agent) agent.destroy();
  return outcomes;
}
