// Steady, bounded traffic through the balancer, as browsers make it: pages and every asset
// each page names, a slow streamed page, failures on purpose, assets, 404s. Every response is
// checked; what is wrong is kept, not thrown, so a roll is judged as a whole.
import { Agent } from 'node:http';
import { pageDigest } from '../../tools/harness/digests.ts';
import { fetchOnce, type Fetched } from '../../tools/harness/http.ts';
import { sleep } from '../../tools/harness/net.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';
import { DIAGNOSTICS_TOKEN } from './cluster.ts';

const BROWSER = { 'user-agent': BROWSER_UA };
const DIAG = { 'x-diagnostics-token': DIAGNOSTICS_TOKEN };
const SLOW_MS = 600;
const KINDS = ['page', 'slow', 'server-error', 'asset', 'api-error', 'page', 'not-found'] as const;
type Kind = (typeof KINDS)[number];

export interface LoadReport {
  requests: number;
  byKind: Record<string, number>;
  /** Requests that got no response at all (refused, reset, timed out). */
  connectionErrors: string[];
  /** 5xx where none was intended, and any other status that was not the expected one. */
  unexpected: string[];
  /** Responses cut short: not complete, or a page without its closing </html>. */
  truncated: string[];
  /** Assets a page named that did not load with 200 through the balancer. */
  assetMisses: string[];
  /** The entry script of every page served, by name: one per release. */
  entries: Map<string, number>;
  /** Every asset the pages of each entry named. */
  assetsByEntry: Map<string, Set<string>>;
}

const ASSET = /(?:src|href)="(\/assets\/[^"]+)"/g;
/** React Router's entry: the page's first modulepreload (an inline module script imports it). */
const ENTRY = /<link rel="modulepreload" href="\/assets\/([^"]+)"/;

export function startLoad(url: string, options: { workers: number; pauseMs: number }) {
  const report: LoadReport = {
    requests: 0,
    byKind: {},
    connectionErrors: [],
    unexpected: [],
    truncated: [],
    assetMisses: [],
    entries: new Map(),
    assetsByEntry: new Map(),
  };
  const known = new Set<string>();
  let running = true;

  async function get(kind: string, path: string, headers: Record<string, string>, agent: Agent): Promise<Fetched | undefined> {
    report.requests += 1;
    report.byKind[kind] = (report.byKind[kind] ?? 0) + 1;
    try {
      const reply = await fetchOnce(`${url}${path}`, { headers, agent, allowCut: true });
      if (!reply.complete) report.truncated.push(`${path}: incomplete body (${reply.body.length} bytes)`);
      return reply;
    } catch (error) {
      report.connectionErrors.push(`${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      return undefined;
    }
  }

  const expect = (reply: Fetched | undefined, path: string, status: number) => {
    if (reply && reply.status !== status) report.unexpected.push(`${path}: ${reply.status}, expected ${status}`);
    return reply?.status === status;
  };

  async function one(kind: Kind, agent: Agent, n: number): Promise<void> {
    if (kind === 'page') {
      const page = await get(kind, '/', BROWSER, agent);
      if (!expect(page, '/', 200) || !page) return;
      if (!page.body.endsWith('</html>')) report.truncated.push(`/: page ends without </html>`);
      const entry = ENTRY.exec(page.body)?.[1] ?? 'none';
      report.entries.set(entry, (report.entries.get(entry) ?? 0) + 1);
      const assets = [...new Set([...page.body.matchAll(ASSET)].map((match) => match[1]!))];
      const byEntry = report.assetsByEntry.get(entry) ?? new Set<string>();
      report.assetsByEntry.set(entry, byEntry);
      for (const asset of assets) {
        byEntry.add(asset);
        known.add(asset);
        const reply = await get('page-asset', asset, BROWSER, agent);
        if (reply && reply.status !== 200) report.assetMisses.push(`${asset}: ${reply.status} (page of ${entry})`);
      }
    } else if (kind === 'slow') {
      const path = `/_diag/slow?ms=${SLOW_MS}`;
      const reply = await get(kind, path, { ...BROWSER, ...DIAG }, agent);
      if (expect(reply, path, 200) && !(reply!.body.includes(`Finished after ${SLOW_MS} ms.`) && reply!.body.endsWith('</html>'))) {
        report.truncated.push(`${path}: stream ended early (${reply!.body.length} bytes)`);
      }
    } else if (kind === 'server-error') {
      const reply = await get(kind, '/_diag/server-error', { ...BROWSER, ...DIAG }, agent);
      if (expect(reply, '/_diag/server-error', 500) && pageDigest(reply!.body) === undefined)
        report.unexpected.push('/_diag/server-error: no digest');
    } else if (kind === 'api-error') {
      const reply = await get(kind, '/_diag/api-error', { ...DIAG, accept: 'application/json' }, agent);
      expect(reply, '/_diag/api-error', 500);
    } else if (kind === 'asset') {
      const asset = [...known][n % Math.max(known.size, 1)];
      if (asset === undefined) return;
      const reply = await get(kind, asset, BROWSER, agent);
      if (reply && reply.status !== 200) report.assetMisses.push(`${asset}: ${reply.status}`);
    } else {
      const path = `/no-such-page-${n}`;
      expect(await get(kind, path, BROWSER, agent), path, 404);
    }
  }

  async function worker(index: number): Promise<void> {
    // Keep-alive, as browsers and CDNs connect to a balancer.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let n = index; running; n += 1) {
      await one(KINDS[n % KINDS.length]!, agent, n);
      await sleep(options.pauseMs);
    }
    agent.destroy();
  }

  const workers = Array.from({ length: options.workers }, (_, index) => worker(index));
  return {
    report,
    async stop(): Promise<LoadReport> {
      running = false;
      await Promise.all(workers);
      return report;
    },
  };
}
