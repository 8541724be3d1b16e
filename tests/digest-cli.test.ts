import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_UA } from '../tools/harness/user-agents.ts';
import { DIGEST_BIN, digestOf, jsonLines, runDigest, tempDir, writeLog } from './support/digest-cli.ts';
import { CLIENT_ERRORS_PATH } from '../shared/runtime.ts';
import { createTestApp, DIAG } from './support/test-app.ts';
import { parseServerDigest } from '../shared/digest-proof.ts';
import { streamedValue } from '../tools/harness/digests.ts';
import { fetchOnce } from '../tools/harness/http.ts';

// The digest CLI over logs the real server wrote: an operator holding a digest from a user's
// screenshot reaches the failure in one command.

const GARBAGE = [
  'npm WARN config something',
  'Error: a raw stack printed by accident',
  '    at nowhere (x.js:1:1)',
  '{"cut short by a crash":',
];
const SPARKLINE = /[▁▂▃▄▅▆▇█]{24}/;
/** A browser's digest: `c-` and base36 (shared/client-digest.ts). */
const CLIENT_DIGEST = 'c-1k2j3h4g5f6d';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

interface Failure {
  digest: string;
  reqIds: string[];
}

let dir: string;
let log: string;
let logText: string;
let page: Failure;
let api: Failure;
let async: Failure;

/** `times` requests to one diagnostic route: the same failure, so one digest. */
async function fail(app: Parameters<typeof request>[0], path: string, times: number): Promise<Failure> {
  const responses = [];
  for (let i = 0; i < times; i++) responses.push(await request(app).get(path).set(DIAG).expect(500));
  const digests = new Set(responses.map(digestOf));
  expect(digests.size).toBe(1);
  return { digest: [...digests][0]!, reqIds: responses.map((res) => res.headers['x-request-id'] as string) };
}

beforeAll(async () => {
  const { app, logs } = createTestApp();
  page = await fail(app, '/_diag/server-error', 3);
  api = await fail(app, '/_diag/api-error', 2);
  async = await fail(app, '/_diag/async-error', 1);
  await request(app).get('/no-such-page').expect(404);
  await request(app)
    .post(CLIENT_ERRORS_PATH)
    .send({
      digest: CLIENT_DIGEST,
      kind: 'uncaught',
      type: 'TypeError',
      message: 'x is undefined',
      stack: 'render@http://host/assets/a.js:1:2',
      path: '/_diag/server-error',
      pageReqId: page.reqIds[0],
    })
    .expect(204);
  dir = tempDir();
  logText = [GARBAGE[0], jsonLines(logs.lines), ...GARBAGE.slice(1)].join('\n') + '\n';
  log = writeLog(dir, 'app.log', logText);
});

describe('looking up a digest', () => {
  it('finds every occurrence of a full digest, with its requests, route and one full error', () => {
    const run = runDigest([page.digest, log]);
    expect(run.status).toBe(0);
    // Three failure lines; the access lines that repeat the digest are not occurrences.
    expect(run.stdout).toContain(`Digest ${page.digest} — 3 occurrences`);
    expect(run.stdout).toMatch(/statuses +500 ×3/);
    expect(run.stdout).toMatch(/routes +page:diag-server-error ×3/);
    expect(run.stdout).toMatch(/releases +react-ssr-host@/);
    for (const id of page.reqIds) expect(run.stdout).toContain(id);
    expect(run.stdout.indexOf(page.reqIds[2]!)).toBeLessThan(run.stdout.indexOf(page.reqIds[0]!));
    expect(run.stdout).toContain('Error: Diagnostic server error: render threw before the shell');
    expect(run.stdout).toMatch(/\n {8}at /);
    expect(run.stdout).not.toContain(api.digest);
  });

  it('finds a digest from its first characters', () => {
    const run = runDigest([api.digest.slice(0, 5), log]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Digest ${api.digest} — 2 occurrences`);
    expect(run.stdout).toContain('Diagnostic API error: a JSON route threw');
  });

  it('warns on stderr when a prefix matches several digests, and shows each, most frequent first', () => {
    const line = (digest: string, reqId: string) => ({
      level: 50,
      time: Date.now(),
      digest,
      reqId,
      status: 500,
      error: { type: 'Error', message: reqId },
      msg: 'request failed',
    });
    const file = writeLog(
      dir,
      'shared-prefix.log',
      jsonLines([line('AbCdXXXXXXXXXXXX', 'x1'), line('AbCdEfGhIjKlMnOp', 'e1'), line('AbCdEfGhIjKlMnOp', 'e2')]),
    );
    const run = runDigest(['AbCd', file]);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain("'AbCd' matches 2 digests: AbCdEfGhIjKlMnOp (2), AbCdXXXXXXXXXXXX (1)");
    expect(run.stdout.indexOf('Digest AbCdEfGhIjKlMnOp')).toBeGreaterThanOrEqual(0);
    expect(run.stdout.indexOf('Digest AbCdXXXXXXXXXXXX')).toBeGreaterThan(run.stdout.indexOf('Digest AbCdEfGhIjKlMnOp'));
  });

  it('shows browser reports as client-side, with the request id of the page that failed', () => {
    const run = runDigest([CLIENT_DIGEST.slice(0, 6), log]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Digest ${CLIENT_DIGEST} — 1 occurrence (client-side ×1)`);
    expect(run.stdout).toMatch(new RegExp(`requests +${page.reqIds[0]} .*client-side`));
    expect(run.stdout).toContain('TypeError: x is undefined\n        render@http://host/assets/a.js:1:2');
  });

  it('shows a process fault by its kind', () => {
    const fault = {
      level: 60,
      time: Date.now(),
      digest: 'PrOcEsSfAuLt0000',
      kind: 'uncaughtException',
      error: { type: 'Error', message: 'boom' },
      msg: 'process fault: exiting',
    };
    const run = runDigest(['PrOcEs', writeLog(dir, 'fault.log', jsonLines([fault]))]);
    expect(run.stdout).toContain('Digest PrOcEsSfAuLt0000 — 1 occurrence (process fault ×1)');
    expect(run.stdout).toMatch(/kinds +uncaughtException ×1/);
  });

  it('exits 1 with a one-line message when nothing matches', () => {
    const run = runDigest(['zzzzzzzzzzzzzzzz', log]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^digest: no failure with a digest starting 'zzzzzzzzzzzzzzzz' in .*app\.log$/m);
  });

  it('prints the documented JSON shape with --json', () => {
    const run = runDigest([page.digest, log, '--json']);
    expect(run.status).toBe(0);
    const { query, matches } = JSON.parse(run.stdout);
    expect(query).toBe(page.digest);
    expect(matches).toHaveLength(1);
    expect(matches[0]).toMatchObject({
      digest: page.digest,
      count: 3,
      statuses: [{ value: '500', count: 3 }],
      routes: [{ value: 'page:diag-server-error', count: 3 }],
      moreRequests: 0,
      example: {
        side: 'server',
        reqId: page.reqIds[2],
        error: { type: 'Error', message: 'Diagnostic server error: render threw before the shell' },
      },
    });
    expect(matches[0].requests.map((seen: { reqId: string }) => seen.reqId)).toEqual([...page.reqIds].reverse());
    expect(matches[0].firstSeen).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(matches[0].example.error.stack).toMatch(/\n {4}at /);
  });
});

describe('reading the logs', () => {
  it('counts and skips lines that are not JSON', () => {
    const run = runDigest([page.digest, log]);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`skipped ${GARBAGE.length} non-JSON lines`);
  });

  it('reads gzip by its bytes, whatever the file is called, alongside plain files', () => {
    const gz = writeLog(dir, 'app.log.gz', gzipSync(logText));
    const rotated = writeLog(dir, 'app.log.1', gzipSync(logText));
    const run = runDigest([page.digest, gz, rotated, log]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Digest ${page.digest} — 9 occurrences`);
  });

  it('reads stdin when no file is given, or for -', () => {
    expect(runDigest([async.digest], { input: logText }).stdout).toContain(`Digest ${async.digest} — 1 occurrence`);
    expect(runDigest([async.digest, '-'], { input: gzipSync(logText) }).stdout).toContain(`Digest ${async.digest} — 1 occurrence`);
  });

  it('names the file it cannot read and exits 2', () => {
    const run = runDigest([page.digest, join(dir, 'missing.log')]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^digest: cannot read .*missing\.log: ENOENT/);
  });
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
    expect(rows[0]).toContain('page:diag-server-error ×3');
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
