// A browser report's proof counts once per replica, within its window, for the page id the server
// chose (server/failures/report-proof.ts): a replayed, stale, re-bound or unrememberable proof is
// logged as a claim (`claimedDigest`, `"verified":false`), never as another verified report.
import { afterEach, describe, expect, it } from 'vitest';
import { parseServerDigest, SERVER_DIGEST } from '../../shared/digest-proof.ts';
import { LEVEL, type LogLine } from '../../shared/log-line.ts';
import { CLIENT_ERRORS_PATH } from '../../shared/runtime.ts';
import { PROOF_PERIOD_MS, PROOF_WINDOW_MS } from '../../server/failures/report-proof.ts';
import { createSpentProofs } from '../../server/failures/spent-proofs.ts';
import { streamedValue } from '../../tools/harness/digests.ts';
import { fetchOnce } from '../../tools/harness/http.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';
import { createTestApp, DIAG, type TestApp } from '../support/test-app.ts';

/** A moment at the start of a proof period, so ages below are exact. */
const EPOCH = 1_000 * PROOF_PERIOD_MS;
const REPORT = { kind: 'recoverable', type: 'Error', message: 'boundary recovered', path: '/_diag/stream-error' };

let hosts: TestApp[] = [];
afterEach(async () => {
  await Promise.all(hosts.map((host) => host.close()));
  hosts = [];
});

/** A host whose proof clock the test moves. */
async function start(options: { capacity?: number; env?: Record<string, string> } = {}) {
  const clock = { now: EPOCH };
  const spent = createSpentProofs(options.capacity);
  const host = createTestApp(options.env, { reportProofs: { now: () => clock.now, spent } });
  await host.listen();
  hosts.push(host);
  return { host, clock };
}

/** A real page whose Suspense boundary failed: the digest, the proof React wrote, the page id. */
async function failedPage(host: TestApp, headers: Record<string, string> = {}) {
  const page = await fetchOnce(`${host.url}/_diag/stream-error`, { headers: { 'user-agent': BROWSER_UA, ...DIAG, ...headers } });
  const server = parseServerDigest(streamedValue(page.body));
  expect(server?.proof).toMatch(SERVER_DIGEST);
  return { digest: server!.digest, proof: server!.proof!, pageReqId: String(page.headers['x-request-id']) };
}

/** Each report from its own loopback address, so the 10-a-minute limit per client never applies. */
let client = 0;
async function report(host: TestApp, body: object): Promise<LogLine> {
  const from = `127.0.${Math.floor(client / 250) + 1}.${(client++ % 250) + 2}`;
  const res = await fetchOnce(`${host.url}${CLIENT_ERRORS_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...REPORT, ...body }),
    localAddress: from,
  });
  expect(res.status).toBe(204);
  return host.logs.waitFor((line) => line.side === 'client' && line.reqId === res.headers['x-request-id']);
}

const verified = (lines: LogLine[]) => lines.filter((line) => line.side === 'client' && line.verified === true);
const claims = (lines: LogLine[]) => lines.filter((line) => line.side === 'client' && line.claimedDigest !== undefined);

describe('a proof used again is a claim', () => {
  it.each([
    ['the same report sent twice', 2, (i: number) => ({ kind: 'recoverable', seq: i })],
    ['the same report sent six times', 6, () => ({})],
    [
      'the proof under other kinds, paths and messages',
      5,
      (i: number) => ({ kind: ['caught', 'uncaught'][i % 2], path: `/p${i}`, message: `m${i}` }),
    ],
  ])('%s: one verified line, every other a claim with proofStatus "replayed"', async (_name, times, vary) => {
    const { host } = await start();
    const page = await failedPage(host);
    for (let i = 0; i < times; i++) await report(host, { ...page, ...vary(i) });
    const lines = host.logs.lines;
    expect(verified(lines)).toHaveLength(1);
    expect(verified(lines)[0]).toMatchObject({ level: LEVEL.warn, digest: page.digest, pageReqId: page.pageReqId });
    expect(claims(lines)).toHaveLength(times - 1);
    for (const line of claims(lines)) {
      expect(line).toMatchObject({ level: LEVEL.warn, claimedDigest: page.digest, verified: false, proofStatus: 'replayed' });
      expect(line).not.toHaveProperty('digest');
    }
    // The server's own failure line, and the one verified report: nothing else carries the digest.
    expect(lines.filter((line) => line.digest === page.digest && line.error !== undefined)).toHaveLength(2);
  });

  it('many pages, each report replayed: every page verifies once', async () => {
    const { host } = await start();
    const pages = [];
    for (let i = 0; i < 6; i++) pages.push(await failedPage(host));
    for (const page of [...pages, ...[...pages].reverse()]) await report(host, page);
    expect(verified(host.logs.lines).map((line) => line.pageReqId)).toEqual(pages.map((page) => page.pageReqId));
    expect(claims(host.logs.lines).map((line) => line.proofStatus)).toEqual(Array(6).fill('replayed'));
  });

  it('counts once per replica: two replicas sharing DIGEST_KEY each accept it once', async () => {
    const one = await start();
    const two = await start();
    const page = await failedPage(one.host);
    for (const host of [one.host, two.host, one.host, two.host]) await report(host, page);
    for (const host of [one.host, two.host]) {
      expect(verified(host.logs.lines)).toHaveLength(1);
      expect(claims(host.logs.lines)).toMatchObject([{ proofStatus: 'replayed' }]);
    }
  });
});

describe('a proof is bound to the page id the server chose', () => {
  it.each(['attacker-chosen', 'lb-7f3a.42', '7F000001:8296_7F00001E:1F90_4F7B0A69_0003:790A'])(
    'a page loaded with X-Request-Id %s from an untrusted client gets its own id; the proof is worth nothing for the chosen one',
    async (chosen) => {
      const { host } = await start();
      const page = await failedPage(host, { 'x-request-id': chosen });
      expect(page.pageReqId).not.toBe(chosen);
      expect(await report(host, { ...page, pageReqId: chosen })).toMatchObject({ verified: false, proofStatus: 'invalid' });
      expect(await report(host, page)).toMatchObject({ verified: true, digest: page.digest });
    },
  );

  it('behind a trusted proxy its id is the page id, and the proof is bound to it', async () => {
    const { host } = await start({ env: { TRUST_PROXY: 'loopback' } });
    const page = await failedPage(host, { 'x-request-id': 'haproxy-id-1' });
    expect(page.pageReqId).toBe('haproxy-id-1');
    expect(await report(host, { ...page, pageReqId: 'haproxy-id-2' })).toMatchObject({ verified: false, proofStatus: 'invalid' });
    expect(await report(host, page)).toMatchObject({ verified: true });
  });
});

describe('a proof is good for a bounded window', () => {
  const MINUTE = 60_000;
  // [signed this long into a period, reported this long after] → verified?
  it.each([
    [0, 0, true],
    [0, MINUTE, true],
    [0, PROOF_WINDOW_MS - 1, true],
    [0, PROOF_WINDOW_MS, false],
    [PROOF_PERIOD_MS - 1, PROOF_PERIOD_MS, true],
    [PROOF_PERIOD_MS - 1, PROOF_PERIOD_MS + 1, false],
    [2 * MINUTE, 7 * MINUTE, true],
    [2 * MINUTE, 9 * MINUTE, false],
    [0, 24 * 60 * MINUTE, false],
    // A report from before its page (a clock stepped back) matches no period either.
    [MINUTE, -2 * MINUTE, false],
  ])('signed %i ms into a period and reported %i ms later: verified %s', async (offset, age, expected) => {
    const { host, clock } = await start();
    clock.now = EPOCH + offset;
    const page = await failedPage(host);
    clock.now += age;
    const line = await report(host, page);
    expect(line).toMatchObject(expected ? { verified: true } : { verified: false, proofStatus: 'invalid', claimedDigest: page.digest });
  });
});

describe('the memory of spent proofs is bounded', () => {
  it('past its capacity a good proof is a claim ("full"), until the spent ones expire', async () => {
    const CAPACITY = 3;
    const { host, clock } = await start({ capacity: CAPACITY });
    const pages = [];
    for (let i = 0; i <= CAPACITY; i++) pages.push(await failedPage(host));
    const statuses = [];
    for (const page of pages) statuses.push((await report(host, page)).proofStatus ?? 'verified');
    expect(statuses).toEqual([...Array(CAPACITY).fill('verified'), 'full']);
    // Once their window is over the spent proofs are forgotten (they fail the check on their own).
    clock.now += PROOF_WINDOW_MS;
    expect(await report(host, pages[0]!)).toMatchObject({ verified: false, proofStatus: 'invalid' });
    const fresh = await failedPage(host);
    expect(await report(host, fresh)).toMatchObject({ verified: true });
    expect(await report(host, fresh)).toMatchObject({ verified: false, proofStatus: 'replayed' });
  });
});
