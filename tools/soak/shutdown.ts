// SIGTERM under load: slow streams are mid-flight and clients keep arriving when the signal
// lands. The server must finish what it started, refuse what comes after, and exit 0.
import { sleep } from '../harness/net.ts';
import type { Exit, RunningServer } from '../harness/spawn.ts';
import { send, type Outcome } from './client.ts';
import { slowStream, type Kind } from './mix.ts';
import { runTraffic } from './traffic.ts';

/** The phase's settings, in one place. */
const PHASE = {
  /** Streams open when the signal lands; each finishes well inside the 2 s delay and 5 s grace of the defaults. */
  streams: 4,
  streamMs: 1_500,
  /** Load already running for a moment before the signal. */
  loadBeforeSignalMs: 300,
  /** Arriving clients stop once the server is gone, and in any case after this. */
  arrivingMaxMs: 15_000,
  arrivingConcurrency: 16,
  arrivingMaxRequests: 20_000,
  /** The streams must have their headers by then, or the phase is broken, not the server. */
  headersTimeoutMs: 5_000,
} as const;

export interface DrainResult {
  /** The streams that were in flight at SIGTERM. */
  inFlight: Outcome[];
  /** Clients that kept arriving; refusals before any headers are expected. */
  arriving: Outcome[];
  exit: Exit;
}

export async function sigtermUnderLoad(server: RunningServer, mix: Kind[]): Promise<DrainResult> {
  const streamKind = slowStream(PHASE.streamMs);
  let withHeaders = 0;
  const inFlight = Array.from({ length: PHASE.streams }, () => send(server.url, streamKind, 'drain', false, () => withHeaders++));
  const arriving = runTraffic({
    base: server.url,
    mix,
    phase: 'drain',
    concurrency: PHASE.arrivingConcurrency,
    durationMs: PHASE.arrivingMaxMs,
    maxRequests: PHASE.arrivingMaxRequests,
    keepAlive: false,
    // A client refused at the door goes elsewhere; it does not hammer a closed port.
    stopOnRefusal: true,
    stopWhen: () => !server.isRunning(),
  });
  const waitedFrom = performance.now();
  while (withHeaders < PHASE.streams && performance.now() - waitedFrom < PHASE.headersTimeoutMs) await sleep(10);
  await sleep(PHASE.loadBeforeSignalMs);
  const exit = await server.stop('SIGTERM');
  return { inFlight: await Promise.all(inFlight), arriving: await arriving, exit };
}
