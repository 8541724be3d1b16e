// The digest tool never says it found a digest that no server failure logged: a digest that only
// browser reports name (claims, or verified reports whose failure is in another log) is "not
// found" (exit 1), its reports listed apart, in text and in --json. Over logs the real server
// wrote, with the built tool (tests/support/digest-cli.ts).
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseServerDigest } from '../../shared/digest-proof.ts';
import { CLIENT_ERRORS_PATH } from '../../shared/runtime.ts';
import { streamedValue } from '../../tools/harness/digests.ts';
import { fetchOnce } from '../../tools/harness/http.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';
import { jsonLines, runDigest, tempDir, writeLog } from '../support/digest-cli.ts';
import { createTestApp, DIAG, type TestApp } from '../support/test-app.ts';

interface Lookup {
  matches: { digest: string; count: number; browserReports: { verified: number; unverified: number } }[];
  reportedOnly: { digest: string; browserReports: { verified: number; unverified: number; latest: { verified: boolean }[] } }[];
}

const SHARED_KEY = { DIGEST_KEY: 'shared-digest-key-0123456789' };
const REPORT = { kind: 'recoverable', type: 'Error', message: 'boundary recovered', path: '/_diag/stream-error' };
/** A 16-character server-shaped digest nobody logged. */
const madeUp = (prefix = '') => (prefix + randomBytes(12).toString('base64url')).slice(0, 16);

/** Each report from its own loopback address: the 10-a-minute limit per client never applies. */
let client = 0;
async function post(host: TestApp, body: object): Promise<void> {
  const res = await fetchOnce(`${host.url}${CLIENT_ERRORS_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...REPORT, ...body }),
    localAddress: `127.0.2.${(client++ % 250) + 2}`,
  });
  expect(res.status).toBe(204);
}

async function failedBoundary(host: TestApp, path = '/_diag/stream-error') {
  const page = await fetchOnce(`${host.url}${path}`, { headers: { 'user-agent': BROWSER_UA, ...DIAG } });
  const server = parseServerDigest(streamedValue(page.body))!;
  return { digest: server.digest, proof: server.proof!, pageReqId: String(page.headers['x-request-id']) };
}

let log = '';
/** The boundary failure this log holds, with one genuine report and one replay of it. */
let logged: Awaited<ReturnType<typeof failedBoundary>>;
/** Ways of claiming a digest without a valid proof; `logged` is the log's genuine report. */
const WAYS: [string, (digest: string, real: typeof logged) => object][] = [
  ['no proof, no page id', (digest) => ({ digest })],
  ['no proof', (digest, real) => ({ digest, pageReqId: real.pageReqId })],
  ['a made-up proof', (digest, real) => ({ digest, proof: 'AAAAAAAAAAAAAAAA', pageReqId: real.pageReqId })],
  ["another digest's genuine proof and page", (digest, real) => ({ digest, proof: real.proof, pageReqId: real.pageReqId })],
  ['an uncaught kind', (digest) => ({ digest, kind: 'uncaught' })],
  ['a caught kind on another path', (digest) => ({ digest, kind: 'caught', path: '/checkout' })],
];
/** Each way twice: a digest of its own, and one sharing a 6-character prefix with the logged one. */
const CLAIMS = WAYS.flatMap(([way, body]) => [
  { name: way, body, sharesPrefix: false },
  { name: `${way}, sharing a prefix with a logged digest`, body, sharesPrefix: true },
]);
/** The digest each claim named, once the log is written. */
const claimed = new Map<string, string>();

beforeAll(async () => {
  const here = createTestApp(SHARED_KEY);
  await here.listen();
  try {
    logged = await failedBoundary(here);
    await post(here, logged);
    await post(here, logged); // a replay: a claim of a digest that was logged
    for (const claim of CLAIMS) {
      const digest = madeUp(claim.sharesPrefix ? logged.digest.slice(0, 6) : '');
      claimed.set(claim.name, digest);
      await post(here, claim.body(digest, logged));
    }
  } finally {
    await here.close();
  }
  log = writeLog(tempDir(), 'app.log', jsonLines(here.logs.lines));
});

describe('a digest only claimed by unverified browser reports is not found', () => {
  it.each(CLAIMS.map((claim) => claim.name))('%s: exit 1, the claim listed apart', (name) => {
    const digest = claimed.get(name)!;
    const run = runDigest([digest, log]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`no failure with a digest starting '${digest}'`);
    expect(run.stderr).toContain('browser reports name one such digest, listed apart');
    expect(run.stdout).toContain('logged by no server failure in these logs (not found)');
    expect(run.stdout).toMatch(new RegExp(`browser +1 report \\(1 unverified\\), not counted as occurrences`));
    expect(run.stdout).toMatch(/UNVERIFIED/);
    expect(run.stdout).not.toMatch(/occurrences? \(|requests +/);

    const json = runDigest([digest, '--json', log]);
    expect(json.status).toBe(1);
    const result = JSON.parse(json.stdout) as Lookup;
    expect(result.matches).toEqual([]);
    expect(result.reportedOnly).toEqual([
      {
        digest,
        browserReports: expect.objectContaining({ verified: 0, unverified: 1, latest: [expect.objectContaining({ verified: false })] }),
      },
    ]);
  });

  it.each(CLAIMS.filter((claim) => !claim.sharesPrefix).map((claim) => claim.name))(
    '%s, by a 5-character prefix: not found either',
    (name) => {
      const digest = claimed.get(name)!;
      const prefix = digest.slice(0, 5);
      // A prefix may start with '-' (1 in 64 do): it goes after '--', as the tool's usage says.
      const run = runDigest(['--json', '--', prefix, log]);
      const result = JSON.parse(run.stdout) as Lookup;
      // A random prefix could match the logged digest too (2^-30): then that alone is the match.
      expect(result.matches.map((match) => match.digest)).toEqual(logged.digest.startsWith(prefix) ? [logged.digest] : []);
      expect(run.status).toBe(result.matches.length === 0 ? 1 : 0);
      expect(result.reportedOnly.map((only) => only.digest)).toContain(digest);
    },
  );

  it('never ranks a claim in `digest top`', () => {
    const run = runDigest(['top', '--json', log]);
    expect(run.status).toBe(0);
    const listed = (JSON.parse(run.stdout) as { digests: { digest: string }[] }).digests.map((row) => row.digest);
    expect(listed).toEqual([logged.digest]);
  });
});

describe('a logged digest is found, and claims beside it stay apart', () => {
  it('the logged failure counts once; its verified report and its replay are browser reports, not occurrences', () => {
    const run = runDigest([logged.digest, log]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Digest ${logged.digest} — 1 occurrence (server-side ×1)`);
    expect(run.stdout).toMatch(/browser +2 reports \(1 verified, 1 unverified\), not counted as occurrences/);
  });

  it('a prefix shared with claims finds only the logged digest, and lists the claims apart', () => {
    const prefix = logged.digest.slice(0, 6);
    const sharing = [...claimed.values()].filter((digest) => digest.startsWith(prefix));
    expect(sharing.length).toBeGreaterThan(1);
    const json = JSON.parse(runDigest(['--json', '--', prefix, log]).stdout) as Lookup;
    expect(json.matches.map((match) => match.digest)).toEqual([logged.digest]);
    expect(json.reportedOnly.map((only) => only.digest).sort()).toEqual([...sharing].sort());
    const run = runDigest(['--', prefix, log]);
    expect(run.status).toBe(0);
    // One match: no ambiguity warning for digests that were never logged.
    expect(run.stderr).not.toContain('matches');
    expect(run.stdout).toContain(`Digest ${logged.digest} — 1 occurrence`);
    expect(run.stdout).toContain('Named only by browser reports, logged by no server failure in these logs (not found):');
  });
});

describe("a digest whose failure is in another replica's log", () => {
  it('is not found in this log even with a verified report; its report is listed as verified', async () => {
    // Another replica's failure (a stream timeout: a digest the diagnostic boundary never has),
    // reported to this one: the proof verifies, the failure line is in the other's log.
    const other = createTestApp({ ...SHARED_KEY, STREAM_TIMEOUT_MS: '100' });
    const here = createTestApp(SHARED_KEY);
    await other.listen();
    await here.listen();
    let digest = '';
    try {
      const page = await failedBoundary(other, '/_diag/slow?ms=5000');
      digest = page.digest;
      await post(here, page);
    } finally {
      await other.close();
      await here.close();
    }
    expect(here.logs.lines.filter((line) => line.digest === digest)).toMatchObject([{ side: 'client', verified: true }]);
    const file = writeLog(tempDir(), 'here.log', jsonLines(here.logs.lines));
    const run = runDigest([digest, '--json', file]);
    expect(run.status).toBe(1);
    expect((JSON.parse(run.stdout) as Lookup).reportedOnly).toEqual([
      { digest, browserReports: expect.objectContaining({ verified: 1, unverified: 0 }) },
    ]);
  });
});
