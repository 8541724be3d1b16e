// The streamed page with compression on, as a browser asks for it (issue 21: it may cost at
// most 15% of the page's req/s; targets.ts). The rows above it are loaded without
// Accept-Encoding. The page is loaded again without it right before, so both sides of the
// ratio run on a server equally warm: the first row of a run is measured on a colder JIT.
import { BROWSER_HEADERS } from './app-server.ts';
import { fetchOnce } from '../harness/http.ts';
import type { RunningServer } from '../harness/spawn.ts';
import { loadRoute, type LoadSettings } from './load.ts';
import { STREAMED_PATH } from './routes.ts';
import type { CompressedPage } from './targets.ts';

/** What Chrome sends: the server picks its coding (brotli) as it would for a browser. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** The streamed page again, plain then compressed: checked to be compressed before it is loaded. */
export async function loadCompressed(server: RunningServer, settings: LoadSettings, logBytes: () => number): Promise<CompressedPage> {
  const headers = { ...BROWSER_HEADERS, 'accept-encoding': BROWSER_ACCEPT_ENCODING };
  const probe = await fetchOnce(server.url + STREAMED_PATH, { headers });
  const encoding = probe.headers['content-encoding'];
  if (probe.status !== 200 || encoding === undefined)
    throw new Error(
      `${STREAMED_PATH} with Accept-Encoding: ${BROWSER_ACCEPT_ENCODING} answered ${probe.status}, coding ${encoding ?? 'none'}`,
    );
  const plain = await loadRoute(server.pid, server.url + STREAMED_PATH, { ...BROWSER_HEADERS }, 200, settings, logBytes);
  const compressed = await loadRoute(server.pid, server.url + STREAMED_PATH, headers, 200, settings, logBytes);
  for (const [label, measured] of [
    ['streamed page again', plain],
    [`streamed page, ${encoding}`, compressed],
  ] as const)
    console.log(
      `  ${'server'.padEnd(14)} ${label.padEnd(30)} ${measured.rps.toFixed(0).padStart(6)} req/s  p50 ${measured.p50} ms  p99 ${measured.p99} ms`,
    );
  return { encoding, plain, compressed };
}
