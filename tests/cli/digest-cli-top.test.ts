import { copyFileSync } from 'node:fs';
import { join } from 'node:path';

import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';
import { DIGEST_BIN, jsonLines, runDigest, tempDir, writeLog } from '../support/digest-cli.ts';
import { CLIENT_ERRORS_PATH } from '../../shared/runtime.ts';
import { createTestApp, DIAG } from '../support/test-app.ts';
import { parseServerDigest } from '../../shared/digest-proof.ts';
import { streamedValue } from '../../tools/harness/digests.ts';
import { fetchOnce } from '../../tools/harness/http.ts';

import { CLIENT_DIGEST, DAY, loggedFailures, MINUTE, SPARKLINE, type Failure } from '../support/digest-cli-fixture.ts';
// The digest CLI's `top`, its command line, browser reports and what it prints: split from digest-cli.test.ts.

let dir: string;
let log: string;
let page: Failure;
let api: Failure;
let async: Failure;

beforeAll(async () => {
  ({ dir, log, page, api, async } = await loggedFailures());
});

describe('digest top', () => {
  it('ranks digests by how often they occurred, each with a sparkline of its activity', () => {
    const run = runDigest(['top', log]);
    expect(run.status).toBe(0);
    const rows = run.stdout.split('\n').filter((line) => SPARKLINE.test(line));
    const ranked = rows.map((row) => row.trim().split(/\s+/).slice(0, 2));
    expect(ranked.slice(0, 2)).toEqual([
      ['3', page.digest],
      ['2', api.digest],
    ]);
    // Equal counts: the most recent first, unless both fell in the same millisecond.
    expect(ranked.slice(2)).toEqual(
      expect.arrayContaining([
        ['1', async.digest],
        ['1', CLIENT_DIGEST],
      ]),
    );
    expect(rows[0]).toContain('page:diag/server-error ×3');
    expect(run.stdout).toContain('Top 4 of 4 digests (7 occurrences)');
  });

  it('shows only --limit digests and says how many there were', () => {
    const run = runDigest(['top', '--limit', '1', log]);
    expect(run.stdout).toContain('Top 1 of 4 digests');
    expect(run.stdout.split('\n').filter((line) => SPARKLINE.test(line))).toHaveLength(1);
  });

  it('prints counts and a histogram per digest with --json', () => {
    const { digests, window, totalOccurrences } = JSON.parse(runDigest(['top', '--json', log]).stdout);
    expect(totalOccurrences).toBe(7);
    expect(window.bins).toBe(24);
    expect(digests.map((row: { count: number }) => row.count)).toEqual([3, 2, 1, 1]);
    for (const row of digests) {
      expect(row.histogram.reduce((sum: number, count: number) => sum + count, 0)).toBe(row.count);
      expect(row.sparkline).toMatch(SPARKLINE);
    }
  });

  it('keeps only failures within --since, and draws the burst at the end of that window', () => {
    const now = Date.now();
    const line = (digest: string, time: number) => ({
      level: 50,
      time,
      digest,
      reqId: 'r',
      route: 'page:x',
      error: { type: 'Error', message: 'm' },
      msg: 'request failed',
    });
    const recent = Array.from({ length: 4 }, () => line('RecentRecentRece', now - MINUTE));
    const file = writeLog(
      dir,
      'since.log',
      jsonLines([line('OldOldOldOldOldO', now - 2 * DAY), line('OldOldOldOldOldO', now - 2 * DAY), ...recent]),
    );
    const { digests } = JSON.parse(runDigest(['top', '--since', '1h', '--json', file]).stdout);
    expect(digests.map((row: { digest: string }) => row.digest)).toEqual(['RecentRecentRece']);
    expect(digests[0].sparkline).toBe('▁'.repeat(23) + '█');
    expect(runDigest(['top', '--since', '3d', file]).stdout).toContain('OldOldOldOldOldO');
  });

  it.each([['10'], ['1w'], ['-1h'], ['1.5h']])('rejects --since %s with exit 2 and says what it accepts', (value) => {
    const run = runDigest(['top', `--since=${value}`, log]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`invalid --since '${value}': use a whole number and a unit, e.g. 30s, 15m, 1h, 2d`);
  });
});

describe('the command line', () => {
  it('prints usage with --help', () => {
    const run = runDigest(['--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('digest top [--since 1h]');
  });

  it('rejects an unknown option with exit 2 and a pointer to --help', () => {
    const run = runDigest([page.digest, '--verbose', log]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe("digest: unknown option '--verbose'\nRun 'digest --help' for usage.\n");
  });

  it('runs from its source too, as `npm run digest` does in a checkout', () => {
    const run = runDigest([page.digest, log], { entry: 'source' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Digest ${page.digest} — 3 occurrences`);
  });

  it('runs as the built bin, with nothing but Node beside it', () => {
    // The global setup ran `npm run build`; a copy outside the repo proves no package is needed.
    const bin = join(dir, 'digest.js');
    copyFileSync(DIGEST_BIN, bin);
    const run = runDigest([page.digest, log], { entry: bin, cwd: dir });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Digest ${page.digest} — 3 occurrences`);
  });
});

describe('browser reports are shown apart from server occurrences', () => {
  it('a forged report is not counted and not listed as a request; a genuine recovered-boundary report is shown as verified', async () => {
    const host = createTestApp();
    await host.listen();
    let digest: string;
    let serverReqId: string;
    try {
      const page = await fetchOnce(`${host.url}/_diag/stream-error`, { headers: { 'user-agent': BROWSER_UA, ...DIAG } });
      const server = parseServerDigest(streamedValue(page.body))!;
      digest = server.digest;
      serverReqId = String(page.headers['x-request-id']);
      const report = { kind: 'recoverable', digest, type: 'Error', message: 'boundary recovered', path: '/_diag/stream-error' };
      await request(host.app)
        .post(CLIENT_ERRORS_PATH)
        .send({ ...report, proof: server.proof, pageReqId: serverReqId })
        .expect(204);
      await request(host.app)
        .post(CLIENT_ERRORS_PATH)
        .send({ ...report, path: '/forged', pageReqId: 'forger-page-id' })
        .expect(204);
    } finally {
      await host.close();
    }
    const file = writeLog(tempDir(), 'reports.log', jsonLines(host.logs.lines));
    const run = runDigest([digest, file]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Digest ${digest} — 1 occurrence (server-side ×1)`);
    expect(run.stdout).toMatch(new RegExp(`requests +${serverReqId} `));
    expect(run.stdout).toMatch(/browser +2 reports \(1 verified, 1 unverified\), not counted as occurrences/);
    expect(run.stdout).toMatch(new RegExp(`${serverReqId} .* recoverable +/_diag/stream-error +verified`));
    expect(run.stdout).toMatch(/forger-page-id .* recoverable +\/forged +UNVERIFIED/);
    expect(run.stdout).not.toMatch(/requests +forger-page-id/);
    // The example error is the server's, never a browser's claim.
    expect(run.stdout).toContain('Diagnostic stream error: Suspense content threw after the shell');
    const top = runDigest(['top', '--json', file]);
    expect((JSON.parse(top.stdout) as { digests: { digest: string; count: number }[] }).digests).toEqual([
      expect.objectContaining({ digest, count: 1 }),
    ]);
  });
});

describe('everything printed from a log is neutralised', () => {
  /** ESC sequences (clear screen, OSC retitle, cursor up), CR, raw newlines, C1 CSI, DEL, bidi override. */
  const HOSTILE = 'boom\u001b[2J\u001b]0;pwned\u0007\u001b[1A\r\nFAKE  1  ROW\u009b31m\u007f\u202etxt';
  // eslint-disable-next-line no-control-regex -- finding control characters is this pattern's job
  const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/;

  async function hostileLog(): Promise<string> {
    const { app, logs } = createTestApp();
    const report = {
      kind: 'uncaught',
      digest: 'c-evil0000',
      type: `Type${HOSTILE}`,
      message: HOSTILE,
      stack: `${HOSTILE}\n    at x (${HOSTILE})`,
      path: `/p${HOSTILE}`,
      pageReqId: 'page-1',
    };
    await request(app).post(CLIENT_ERRORS_PATH).send(report).expect(204);
    await request(app)
      .post(CLIENT_ERRORS_PATH)
      .send({ ...report, digest: 'c-evil0001', path: `/q${HOSTILE}` })
      .expect(204);
    return writeLog(tempDir(), 'hostile.log', jsonLines(logs.lines));
  }

  it('lookup shows controls escaped, and each value on its own line', async () => {
    const run = runDigest(['c-evil0000', await hostileLog()]);
    expect(run.status).toBe(0);
    expect(run.stdout).not.toMatch(RAW_CONTROL);
    expect(run.stdout).toContain('boom\\x1b[2J\\x1b]0;pwned\\x07\\x1b[1A\\r\\nFAKE  1  ROW\\x9b31m\\x7f\\u{202e}txt');
    // The header (type and message) and the path keep their newline escaped; a stack is lines,
    // so its newline starts another indented frame line, never a line of the summary.
    expect(run.stdout.split('\n').filter((line) => line.includes('FAKE'))).toHaveLength(3);
    expect(run.stdout.split('\n').some((line) => line.startsWith('FAKE'))).toBe(false);
  });

  it('top keeps one record per table line, and --json leaves no raw control either', async () => {
    const log = await hostileLog();
    const run = runDigest(['top', log]);
    expect(run.status).toBe(0);
    expect(run.stdout).not.toMatch(RAW_CONTROL);
    const rows = run.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(2 + 2); // title, header, two digests
    expect(rows.slice(2).every((row) => /^\s+1 {2}c-evil000[01]/.test(row))).toBe(true);
    for (const args of [
      ['top', '--json', log],
      ['c-evil', '--json', log],
    ]) {
      const json = runDigest(args);
      expect(json.stdout).not.toMatch(RAW_CONTROL);
      expect(JSON.stringify(JSON.parse(json.stdout))).toContain('\\u001b[2J');
    }
  });
});
