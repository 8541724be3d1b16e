import { beforeAll, describe, expect, it } from 'vitest';
import type { LogLine } from '../../shared/log-line.ts';
import { runDigest, tempDir, writeLog } from '../support/digest-cli.ts';
import { fail, type Failure } from '../support/digest-cli-fixture.ts';
import { createTestApp } from '../support/test-app.ts';

// JSON printed over many lines (docs/operating.md, "Across replicas"): a Loki answer saved with
// `curl … | jq` and the server's lines through `jq .` are read, not skipped with a hint about dev logs.

let one: LogLine[];
let two: LogLine[];
let failure: Failure;
let dir: string;

beforeAll(async () => {
  const first = createTestApp();
  failure = await fail(first.app, '/_diag/server-error', 3);
  const second = createTestApp();
  await fail(second.app, '/_diag/server-error', 2);
  // As a release before `replica` wrote them: the stream's label names the replica.
  const bare = (lines: LogLine[]) => lines.map(({ replica: _name, ...line }) => line as LogLine);
  [one, two] = [bare(first.logs.lines), bare(second.logs.lines)];
  dir = tempDir();
});

/** What `jq` prints: two spaces an indent, each value on its own line. */
const jq = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const stream = (pod: string, lines: LogLine[]) => ({
  stream: { app: 'react-ssr-host', pod },
  values: lines.map((line, index) => [`${Date.now()}${String(index).padStart(6, '0')}`, JSON.stringify(line)]),
});
const rangeAnswer = (...streams: object[]) => ({ status: 'success', data: { resultType: 'streams', result: streams } });

describe('JSON documents printed over many lines', () => {
  it("reads a query_range answer as jq prints it, two pages in one file, each line's replica from its stream", () => {
    const saved = writeLog(dir, 'range-pretty.json', jq(rangeAnswer(stream('pod-a', one))) + jq(rangeAnswer(stream('pod-b', two))));
    const run = runDigest([failure.digest, saved]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Digest ${failure.digest} — 5 occurrences`);
    expect(run.stdout).toMatch(/^ {2}replicas {4}pod-a ×3, pod-b ×2$/m);
    expect(run.stderr).toBe('');
  });

  it('reads the same lines once, from an answer jq printed and from kubectl', () => {
    const saved = writeLog(dir, 'range-again.json', jq(rangeAnswer(stream('pod-a', one))));
    const kubectl = writeLog(dir, 'kubectl.log', one.map((line) => `[pod/pod-a/app] ${JSON.stringify(line)}\n`).join(''));
    expect(JSON.parse(runDigest(['top', '--json', saved, kubectl]).stdout)).toMatchObject({ totalOccurrences: 3, skippedLines: 0 });
  });

  it("reads the server's own lines through `jq .`", () => {
    const log = writeLog(dir, 'jq.log', one.map(jq).join(''));
    const run = runDigest([failure.digest, log]);
    expect(run.stdout).toContain(`Digest ${failure.digest} — 3 occurrences`);
    expect(run.stderr).toBe('');
  });

  it('gives back a `{` that opened no document as a line that is not JSON, and reads on', () => {
    const failureLine = JSON.stringify(one.find((line) => line.error !== undefined));
    const log = writeLog(dir, 'brace.log', `{\nnpm WARN config\n{\n${failureLine}\n{\n  "cut": "short`);
    const run = runDigest([failure.digest, log]);
    expect(run.stdout).toContain(`Digest ${failure.digest} — 1 occurrence`);
    // `{`, the npm line, the second `{`, and the last two lines, which never closed.
    expect(run.stderr).toContain('skipped 5 non-JSON lines');
  });
});
