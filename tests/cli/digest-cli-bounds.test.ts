import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES } from '../../cli/line-splitter.ts';
import { jsonLines, runDigest, tempDir, writeLog } from '../support/digest-cli.ts';

// The digest tool on hostile log lines (docs/security.md, the digest tool's rows): whatever a
// line holds, the tool reads every source to the end in time and memory that grow with the input.

/** vitest.config.ts's testTimeout: the tool is killed there, since spawnSync blocks vitest's own. */
const TEST_TIMEOUT_MS = 20_000;
const DIGEST = 'B1anksB1anksB1an';

/** Written a MiB at a time: the test holds no more of a long line than that. */
const WRITE_CHUNK = Buffer.alloc(1024 * 1024, 'x');

/** A JSON line of `bytes` bytes (its newline apart) between `before` and `after`, streamed to the file. */
function writeLongLine(path: string, bytes: number, before: string, after: string): string {
  const head = '{"level":30,"msg":"';
  const tail = '"}\n';
  const fd = openSync(path, 'w');
  writeSync(fd, before + head);
  for (let left = bytes - head.length - tail.length + 1; left > 0; left -= WRITE_CHUNK.length)
    writeSync(fd, WRITE_CHUNK, 0, Math.min(left, WRITE_CHUNK.length));
  writeSync(fd, tail + after);
  closeSync(fd);
  return path;
}

const failure = (reqId: string) => ({
  level: 50,
  time: Date.now(),
  digest: DIGEST,
  reqId,
  status: 500,
  error: { type: 'Error', message: 'boom' },
  msg: 'request failed',
});

describe('lines the tool must not choke on', () => {
  it(
    'reads a line with a million blanks before its JSON in one pass',
    () => {
      // The prefix's time was once matched by a pattern that retried every start inside a run of
      // blanks: 60,000 blanks took 10–26 s, and the time grows with the square, so a million
      // would take hours. Read in one pass, they take milliseconds: no timing is measured here,
      // the run is only killed at the test's own timeout.
      const blanks = ' '.repeat(1_000_000);
      const [compose, unknown] = jsonLines([failure('compose'), failure('unknown')]).split('\n');
      const log = writeLog(tempDir(), 'blanks.log', `app1-1${blanks}| ${compose}\nsome${blanks}words ${unknown}\n`);
      const run = runDigest([DIGEST, log], { killAfterMs: TEST_TIMEOUT_MS });
      expect(run.status).toBe(0);
      expect(run.stdout).toContain(`Digest ${DIGEST} — 1 occurrence`);
      expect(run.stdout).toMatch(/^ {2}replicas {4}app1-1 ×1$/m);
      expect(run.stderr).toContain('skipped 1 non-JSON line');
    },
    TEST_TIMEOUT_MS + 5_000,
  );

  it('skips a line longer than its bound without holding it, counts it apart, and reads on, in that file and the next', () => {
    // Just past the bound: held whole, as readline did, a line of 600 MB passed V8's longest
    // string and the run stopped, leaving the other files unread.
    const dir = tempDir();
    const long = writeLongLine(join(dir, 'long.log'), MAX_LINE_BYTES + 1, jsonLines([failure('before')]), jsonLines([failure('after')]));
    const next = writeLog(dir, 'next.log', jsonLines([failure('next')]));
    const run = runDigest([DIGEST, long, next]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Digest ${DIGEST} — 3 occurrences`);
    expect(run.stderr).toContain(`skipped 1 line longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB, unread`);
    expect(run.stderr).not.toContain('non-JSON');
    const json = JSON.parse(runDigest(['top', '--json', long, next]).stdout);
    expect(json).toMatchObject({ totalOccurrences: 3, skippedLines: 1, skipped: { notJson: 0, tooLong: 1 } });
  });

  it('reads a line of exactly its bound', () => {
    const log = writeLongLine(join(tempDir(), 'at-bound.log'), MAX_LINE_BYTES, '', jsonLines([failure('after')]));
    const run = runDigest(['top', '--json', log]);
    expect(JSON.parse(run.stdout)).toMatchObject({ totalOccurrences: 1, skippedLines: 0 });
  });
});
