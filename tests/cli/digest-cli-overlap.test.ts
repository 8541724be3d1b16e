import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LogLine } from '../../shared/log-line.ts';
import { jsonLines, runDigest, tempDir, writeLog } from '../support/digest-cli.ts';
import { fail, type Failure } from '../support/digest-cli-fixture.ts';
import { createTestApp } from '../support/test-app.ts';

// Sources that overlap (docs/operating.md, "Across replicas"): the same lines gathered twice, by
// kubectl and from Loki, or a log beside its rotated copy, count once each; two real
// occurrences count twice however alike they are.

let lines: LogLine[];
let failure: Failure;
let dir: string;

beforeAll(async () => {
  const { app, logs } = createTestApp();
  failure = await fail(app, '/_diag/server-error', 7);
  // As a release before `replica` wrote them: each tool then names the replica its own way.
  lines = logs.lines.map(({ replica: _name, ...line }) => line as LogLine);
  dir = tempDir();
});

const kubectl = () => lines.map((line) => `[pod/react-ssr-host-7d9f8b6c5d-x2k4q/app] ${JSON.stringify(line)}`).join('\n') + '\n';
const loki = () =>
  lines
    .map((line) =>
      JSON.stringify({ labels: { instance: '10.0.3.7:3000' }, line: JSON.stringify(line), timestamp: new Date().toISOString() }),
    )
    .join('\n') + '\n';

describe('the same lines from two sources', () => {
  it('count once, in the lookup and in top, whichever tool gathered them', () => {
    const sources = [writeLog(dir, 'kubectl.log', kubectl()), writeLog(dir, 'loki.jsonl', loki())];
    const run = runDigest([failure.digest, ...sources]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Digest ${failure.digest} — 7 occurrences`);
    // Each is attributed by the first source that held it.
    expect(run.stdout).toMatch(/^ {2}replicas {4}react-ssr-host-7d9f8b6c5d-x2k4q ×7$/m);
    const top = JSON.parse(runDigest(['top', '--json', ...sources.reverse()]).stdout);
    expect(top.totalOccurrences).toBe(7);
    expect(top.digests).toEqual([expect.objectContaining({ digest: failure.digest, count: 7 })]);
  });

  it('count once from a log and its rotated, compressed copy, and from the same file given twice', () => {
    const log = writeLog(dir, 'app.log', jsonLines(lines));
    const rotated = writeLog(dir, 'app.log.1', gzipSync(jsonLines(lines.slice(0, lines.length - 2))));
    const run = runDigest([failure.digest, rotated, log, log]);
    expect(run.stdout).toContain(`Digest ${failure.digest} — 7 occurrences`);
  });
});

describe('two real occurrences', () => {
  const at = Date.UTC(2026, 10, 22, 5, 12, 33, 213);
  const serverFailure = (reqId: string) => ({
    level: 50,
    time: at,
    release: 'shop@1.5.0',
    digest: 'TwInTwInTwInTwIn',
    reqId,
    status: 500,
    error: { type: 'Error', message: 'boom' },
    msg: 'request failed',
  });
  const browserFailure = (reqId: string) => ({
    level: 40,
    time: at,
    side: 'client',
    digest: 'c-twin0000000',
    reqId,
    pageReqId: 'one-page-load',
    kind: 'uncaught',
    error: { type: 'TypeError', message: 'x is undefined' },
    msg: 'client error',
  });

  it('count twice in the same millisecond, even when the fields a person compares are equal', () => {
    // Two requests' failures at one instant; one page's two reports, which the lookup lists under
    // the page's request id: equal in time, digest and that id, different in their own reqId.
    const log = writeLog(dir, 'twins.log', jsonLines([serverFailure('a'), serverFailure('b'), browserFailure('r1'), browserFailure('r2')]));
    const again = writeLog(dir, 'twins-again.log', jsonLines([serverFailure('b'), browserFailure('r2')]));
    const { digests } = JSON.parse(runDigest(['top', '--json', log, again]).stdout);
    expect(digests.map((row: { digest: string; count: number }) => [row.digest, row.count])).toEqual([
      ['TwInTwInTwInTwIn', 2],
      ['c-twin0000000', 2],
    ]);
  });
});
