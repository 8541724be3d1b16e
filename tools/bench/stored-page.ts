// Issue 37's rows on stored pages (docs/caching.md): the demo's /about, whose route asks to be
// stored (client/pages/about.tsx), loaded while it is stored (HIT: cases.ts), and a stampede on it
// right after it went stale, with the renders it caused counted.
import { BROWSER_HEADERS } from './app-server.ts';
import { fetchOnce, type Fetched } from '../harness/http.ts';
import type { RunningServer } from '../harness/spawn.ts';

export const STORED_PATH = '/about';
/**
 * Seconds /about is reused before it goes stale: its route's `REVALIDATE_S`
 * (client/pages/about.tsx), written here rather than imported, so the bench's own files build
 * and type-check whatever app is in client/ (docs/upgrading.md).
 */
const REVALIDATE_S = 10;
/** The stampede: this many requests at once, each on a connection of its own. */
export const STAMPEDE_REQUESTS = 1_000;
/** A regeneration of /about takes milliseconds; this is ample for it to be stored before we look. */
const REGENERATION_SETTLE_MS = 1_000;
/** The longest the stampede row waits for /about to go stale (the watchdog in run.ts counts it). */
export const STAMPEDE_WAIT_S = REVALIDATE_S + 2;

export interface Stampede {
  requests: number;
  statuses: Record<string, number>;
  /** Answers by their x-cache header: all STALE when single-flight holds. */
  xCache: Record<string, number>;
  /** Renders the stampede caused: distinct "Served at" times other than the stale page's, in its answers and the next one. */
  renders: number;
  p50: number;
  p99: number;
  errors: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The about page shows when its stored copy was rendered (client/pages/about.tsx): one time per render. */
function servedAt(page: Fetched): string | undefined {
  return /Served at (\d{4}-\d\d-\d\dT[\d:.]+Z)\./.exec(page.body)?.[1];
}

/** Fetched twice: the second answer must come from the store (HIT), or the row would measure renders. */
export async function assertStored(server: RunningServer, who: string): Promise<void> {
  const warm = await fetchOnce(server.url + STORED_PATH, { headers: { ...BROWSER_HEADERS } });
  const second = await fetchOnce(server.url + STORED_PATH, { headers: { ...BROWSER_HEADERS } });
  if (warm.status !== 200 || second.headers['x-cache'] !== 'HIT')
    throw new Error(`${who}: ${STORED_PATH} was not stored: ${warm.status}, then x-cache ${String(second.headers['x-cache'])}`);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;

/** Waits for /about's stored copy to go stale, then sends STAMPEDE_REQUESTS at once. */
export async function stampede(server: RunningServer): Promise<Stampede> {
  const url = server.url + STORED_PATH;
  const headers = { ...BROWSER_HEADERS };
  let probe = await fetchOnce(url, { headers });
  if (probe.headers['x-cache'] !== 'HIT') {
    // A stale or missing copy is being rendered anew by this probe: look again once it is stored.
    await sleep(REGENERATION_SETTLE_MS);
    probe = await fetchOnce(url, { headers });
  }
  const stale = servedAt(probe);
  const age = Number(probe.headers.age ?? 0);
  if (probe.headers['x-cache'] !== 'HIT' || stale === undefined)
    throw new Error(`${STORED_PATH} is not stored: x-cache ${String(probe.headers['x-cache'])}`);
  // Age is whole seconds: one more second makes sure the copy is older than `revalidate`.
  await sleep(Math.max(0, REVALIDATE_S + 1 - age) * 1000);
  const answers = await Promise.all(
    Array.from({ length: STAMPEDE_REQUESTS }, () => fetchOnce(url, { headers, allowCut: true }).catch(() => undefined)),
  );
  await sleep(REGENERATION_SETTLE_MS);
  const after = await fetchOnce(url, { headers });
  const statuses: Record<string, number> = {};
  const xCache: Record<string, number> = {};
  const rendered = new Set<string>();
  for (const answer of [...answers, after]) {
    if (!answer) continue;
    const at = servedAt(answer);
    if (at !== undefined && at !== stale) rendered.add(at);
  }
  for (const answer of answers) {
    if (!answer) continue;
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    const kind = String(answer.headers['x-cache'] ?? 'none');
    xCache[kind] = (xCache[kind] ?? 0) + 1;
  }
  const times = answers.flatMap((answer) => (answer ? [answer.totalMs] : [])).sort((a, b) => a - b);
  return {
    requests: STAMPEDE_REQUESTS,
    statuses,
    xCache,
    renders: rendered.size,
    p50: Math.round(percentile(times, 50)),
    p99: Math.round(percentile(times, 99)),
    errors: answers.filter((answer) => answer === undefined || !answer.complete).length,
  };
}
