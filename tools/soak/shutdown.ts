// SIGTERM under load: slow streams are mid-flight and clients keep arriving when the signal
// lands. The server must finish what it started, refuse what comes after, and exit 0.
import { sleep } from '../harness/net.ts';
import type { Exit, RunningServer } from '../harness/spawn.ts';
import { send, type Outcome } from './client.ts';
import { slowStream, type Kind } from './mix.ts';
import { runTraffic } from './traffic.ts';

/** Streams open when the signal lands; each finishes well inside the 2 s delay and 5 s grace of the defaults. */
const IN_FLIGHT_STREAMS = 4;
const IN_FLIGHT_MS = 1_500;
/** Load already running for a moment before the signal. */
const LOAD_BEFORE_SIGNAL_MS = 300;
/** Arriving clients stop once the server is gone, and in any case after this. */
const DRAIN_TRAFFIC_MAX_MS = 15_000;
const DRAIN_CONCURRENCY = 16;
const DRAIN_MAX_REQUESTS = 20_000;
/** The streams must have their headers by then, or the phase is broken, not the server. */
const HEADERS_TIMEOUT_MS = 5_000;

export interface DrainResult {
  /** The streams that were in flight at SIGTERM. */
  inFlight: Outcome[];
  /** Clients that kept arriving; refusals before any headers are expected. */
  arriving: Outcome[];
  exit: Exit;
}

export async function sigtermUnderLoad(server: RunningServer, mix: Kind[]): Promise<DrainResult> {
  const streamKind = slowStream(IN_FLIGHT_MS);
  let withHeaders = 0;
  const inFlight = Array.from({ length: IN_FLIGHT_STREAMS }, () => send(server.url, streamKind, 'drain', false, () => withHeaders++));
  const arriving = runTraffic({
    base: server.url,
    mix,
    phase: 'drain',
    concurrency: DRAIN_CONCURRENCY,
    durationMs: DRAIN_TRAFFIC_MAX_MS,
    maxRequests: DRAIN_MAX_REQUESTS,
    keepAlive: false,
    // A client refused at the door goes elsewhere; it does not hammer a closed port.
    stopOnRefusal: true,
    stopWhen: () => !server.isRunning(),
  });
  const waitedFrom = performance.now();
  while (withHeaders < IN_FLIGHT_STREAMS && performance.now() - waitedFrom < HEADERS_TIMEOUT_MS) await sleep(10);
  await sleep(LOAD_BEFORE_SIGNAL_MS);
  const exit = await server.stop('SIGTERM');
  return { inFlight: await Promise.all(inFlight), arriving: await arriving, exit };
}
