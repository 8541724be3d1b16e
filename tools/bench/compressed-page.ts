// The streamed page with compression on, as a browser asks for it (issue 21: it may cost at
// most 15% of the page's req/s; targets.ts). The rows above it are loaded without
// Accept-Encoding. The page is loaded again without it, in the order plain, compressed,
// compressed, plain, and each side is the pool of its two runs.
import { BROWSER_HEADERS } from './app-server.ts';
import { fetchOnce } from '../harness/http.ts';
import type { RunningServer } from '../harness/spawn.ts';
import { loadRoute, type LoadSettings, type Measured } from './load.ts';
import type { CompressedPage } from './targets.ts';

/** What Chrome sends: the server picks its coding (brotli) as it would for a browser. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** A server still warming (or a neighbour starting to load the machine) favours neither side. */
const LOAD_ORDER = ['plain', 'compressed', 'compressed', 'plain'] as const;
/** For the bench's watchdog (run.ts). */
export const COMPRESSED_PAGE_LOAD_RUNS = LOAD_ORDER.length;

/** Two runs as one: rates and latencies averaged, counts added, per-response figures weighted by responses. */
function pooled(a: Measured, b: Measured): Measured {
  const requests = a.requests + b.requests;
  const weighted = (pick: (m: Measured) => number) => (pick(a) * a.requests + pick(b) * b.requests) / Math.max(requests, 1);
  const statuses = { ...a.statuses };
  for (const [status, count] of Object.entries(b.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
  return {
    rps: (a.rps + b.rps) / 2,
    p50: (a.p50 + b.p50) / 2,
    p99: (a.p99 + b.p99) / 2,
    requests,
    statuses,
    errors: a.errors + b.errors,
    cpuUsPerRequest: weighted((m) => m.cpuUsPerRequest),
    unexpected: a.unexpected + b.unexpected,
    logBytesPerRequest: weighted((m) => m.logBytesPerRequest),
  };
}

/** The streamed page again, plain and compressed, interleaved: checked to be compressed before it is loaded. */
export async function loadCompressed(
  server: RunningServer,
  path: string,
  settings: LoadSettings,
  logBytes: () => number,
): Promise<CompressedPage> {
  const headers = { ...BROWSER_HEADERS, 'accept-encoding': BROWSER_ACCEPT_ENCODING };
  const probe = await fetchOnce(server.url + path, { headers });
  const encoding = probe.headers['content-encoding'];
  if (probe.status !== 200 || encoding === undefined)
    throw new Error(`${path} with Accept-Encoding: ${BROWSER_ACCEPT_ENCODING} answered ${probe.status}, coding ${encoding ?? 'none'}`);
  const runs: Record<'plain' | 'compressed', Measured[]> = { plain: [], compressed: [] };
  for (const side of LOAD_ORDER)
    runs[side].push(
      await loadRoute(server.pid, server.url + path, side === 'plain' ? { ...BROWSER_HEADERS } : headers, 200, settings, logBytes),
    );
  const plain = pooled(runs.plain[0]!, runs.plain[1]!);
  const compressed = pooled(runs.compressed[0]!, runs.compressed[1]!);
  for (const [label, measured] of [
    ['streamed page again', plain],
    [`streamed page, ${encoding}`, compressed],
  ] as const)
    console.log(
      `  ${'ours'.padEnd(8)} ${label.padEnd(22)} ${measured.rps.toFixed(0).padStart(6)} req/s  p50 ${measured.p50} ms  p99 ${measured.p99} ms`,
    );
  return { encoding, plain, compressed };
}
