import { describe, expect, it } from 'vitest';
import { jsonLines, runDigest, tempDir, writeLog } from '../support/digest-cli.ts';

// The digest tool on hostile log lines (docs/security.md, the digest tool's rows): whatever a
// line holds, the tool reads every source to the end in time and memory that grow with the input.

/** vitest.config.ts's testTimeout: the tool is killed there, since spawnSync blocks vitest's own. */
const TEST_TIMEOUT_MS = 20_000;
const DIGEST = 'B1anksB1anksB1an';

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
});
