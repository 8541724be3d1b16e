import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { beforeAll, describe, expect, it } from 'vitest';

import request from 'supertest';

import { jsonLines, runDigest, writeLog } from '../support/digest-cli.ts';
import { createTestApp, DIAG } from '../support/test-app.ts';

import { CLIENT_DIGEST, GARBAGE, loggedFailures, type Failure } from '../support/digest-cli-fixture.ts';
// The digest CLI over logs the real server wrote: an operator holding a digest from a user's
// screenshot reaches the failure in one command.

let dir: string;
let log: string;
let logText: string;
let page: Failure;
let api: Failure;
let async: Failure;

beforeAll(async () => {
  ({ dir, log, logText, page, api, async } = await loggedFailures());
});

describe('looking up a digest', () => {
  it('finds every occurrence of a full digest, with its requests, route and one full error', () => {
    const run = runDigest([page.digest, log]);
    expect(run.status).toBe(0);
    // Three failure lines; the access lines that repeat the digest are not occurrences.
    expect(run.stdout).toContain(`Digest ${page.digest} — 3 occurrences`);
    expect(run.stdout).toMatch(/statuses +500 ×3/);
    expect(run.stdout).toMatch(/routes +page:diag\/server-error ×3/);
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
      routes: [{ value: 'page:diag/server-error', count: 3 }],
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

  it('says why it skipped lines that are not JSON: pretty-printed dev logs, and the setting that makes them JSON', () => {
    // pino-pretty's form of a line (development's default LOG_FORMAT): one head line, then its fields.
    const pretty = '[19:10:55.862] INFO: listening on http://127.0.0.1:3000\n    release: "react-ssr-host@dev"\n';
    const run = runDigest(['top'], { input: pretty });
    expect(run.stderr).toContain('skipped 2 non-JSON lines: pretty-printed dev logs? run the server with LOG_FORMAT=json');
  });

  it('reads gzip by its bytes, whatever the file is called, alongside plain files', () => {
    const gz = writeLog(dir, 'app.log.gz', gzipSync(logText));
    const rotated = writeLog(dir, 'app.log.1', gzipSync(logText));
    for (const file of [gz, rotated]) expect(runDigest([page.digest, file]).stdout).toContain(`Digest ${page.digest} — 3 occurrences`);
    // The same lines in three files are one set of occurrences (cli/seen-lines.ts).
    const run = runDigest([page.digest, gz, rotated, log]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Digest ${page.digest} — 3 occurrences`);
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

describe('prefetches', () => {
  it('counts a failure no user saw (a prefetch’s) apart from the occurrences, in text and JSON', async () => {
    const { app, logs } = createTestApp();
    const data = '/_diag/loader-error.data';
    await request(app).get(data).set(DIAG).set('Purpose', 'prefetch');
    await request(app).get(data).set(DIAG);
    // The prefetch's line is at warn (server/observe/log-levels.ts), the other at error: both carry the error.
    const failureLines = logs.lines.filter((line) => line.error !== undefined);
    const digest = failureLines[0]!.digest!;
    expect(failureLines.map((line) => [line.digest, line.prefetch])).toEqual([
      [digest, true],
      [digest, undefined],
    ]);
    const file = writeLog(dir, 'prefetch.log', logs.lines.map((line) => JSON.stringify(line)).join('\n'));
    const run = runDigest([digest, file]);
    expect(run.stdout).toContain(`Digest ${digest} — 1 occurrence (server-side ×1), and 1 prefetch nobody saw`);
    const json = JSON.parse(runDigest(['--json', digest, file]).stdout) as { matches: { count: number; prefetches: number }[] };
    expect(json.matches[0]).toMatchObject({ count: 1, prefetches: 1 });
  });
});
