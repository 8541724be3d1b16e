import { describe, expect, it } from 'vitest';
import { LISTENING_PREFIX } from '../../shared/log-line.ts';
import { jsonLines, runDigest, tempDir, writeLog } from '../support/digest-cli.ts';
import { MINUTE, SPARKLINE } from '../support/digest-cli-fixture.ts';

// `digest top`'s newest release across a deploy, a rollout still under way and a rollback
// (docs/operating.md, "Across replicas"; cli/releases.ts).

const T0 = Date.UTC(2026, 10, 22, 10, 0);
const OLD = 'shop@1.4.0';
const NEW = 'shop@1.5.0';
const at = (minute: number) => T0 + minute * MINUTE;
const iso = (minute: number) => new Date(at(minute)).toISOString();

const served = (release: string, minute: number, replica: string) => ({
  level: 30,
  time: at(minute),
  release,
  replica,
  status: 200,
  msg: 'request completed',
});
const listening = (release: string, minute: number, replica: string) => ({
  level: 30,
  time: at(minute),
  release,
  replica,
  msg: `${LISTENING_PREFIX}http://localhost:3000`,
});
const failed = (release: string, minute: number, digest: string) => ({
  level: 50,
  time: at(minute),
  release,
  replica: 'app',
  digest,
  reqId: `${digest}-${minute}`,
  status: 500,
  error: { type: 'Error', message: digest },
  msg: 'request failed',
});

/** An old failure, one only the new release had, and one that came with the rollback. */
const [OLD_BUG, NEW_BUG, ROLLBACK_BUG] = ['OldBugOldBugOldB', 'NewBugNewBugNewB', 'BackBugBackBugBa'];

function top(lines: object[]): {
  newest: string;
  rows: string[];
  json: { newestRelease: object; digests: { digest: string; newIn: string | null }[] };
} {
  const log = writeLog(tempDir(), 'app.log', jsonLines(lines));
  const run = runDigest(['top', log]);
  expect(run.status).toBe(0);
  const json = JSON.parse(runDigest(['top', '--json', log]).stdout);
  return { newest: run.stdout.split('\n')[1]!, rows: run.stdout.split('\n').filter((line) => SPARKLINE.test(line)), json };
}

const newIn = (json: { digests: { digest: string; newIn: string | null }[] }) =>
  Object.fromEntries(json.digests.map((row) => [row.digest, row.newIn]));

describe('the newest release after a rollback', () => {
  it('is the release rolled back to, the one seen last, when no line says when a process started', () => {
    const { newest, json } = top([
      served(OLD, 0, 'app'),
      failed(OLD, 5, OLD_BUG),
      served(NEW, 60, 'app'),
      failed(NEW, 65, NEW_BUG),
      failed(NEW, 70, OLD_BUG),
      served(OLD, 120, 'app'),
      failed(OLD, 125, OLD_BUG),
      failed(OLD, 126, ROLLBACK_BUG),
    ]);
    // Without `listening on` lines, it runs again from the start of the release it replaced.
    expect(newest).toBe(`Newest release ${OLD} again since ${iso(60).replace('.000Z', 'Z')}, after ${NEW}`);
    expect(json.newestRelease).toEqual({ release: OLD, firstLine: iso(0), since: iso(60), previous: NEW });
    // A failure of its earlier run is not new in it; one first seen since it came back is.
    expect(newIn(json)).toEqual({ [OLD_BUG]: null, [NEW_BUG]: null, [ROLLBACK_BUG]: OLD });
  });

  it("runs again from its processes' `listening on`, and a rollout under way is the new release's", () => {
    const before = [listening(OLD, 0, 'app-a'), listening(OLD, 0, 'app-b'), failed(OLD, 5, OLD_BUG)];
    const rollout = [listening(NEW, 60, 'app-c'), failed(NEW, 61, NEW_BUG), listening(NEW, 62, 'app-d'), served(OLD, 63, 'app-b')];
    // Mid-rollout the old release's line is the last one read, but the new one started after it.
    const during = top([...before, ...rollout]);
    expect(during.newest).toBe(`Newest release ${NEW}, first line ${iso(60).replace('.000Z', 'Z')}`);
    expect(during.rows.find((row) => row.includes(NEW_BUG))).toMatch(new RegExp(`new in ${NEW}$`));

    const rollback = [
      served(NEW, 119, 'app-d'),
      listening(OLD, 120, 'app-e'),
      listening(OLD, 121, 'app-f'),
      failed(OLD, 125, ROLLBACK_BUG),
    ];
    const after = top([...before, ...rollout, ...rollback]);
    expect(after.json.newestRelease).toEqual({ release: OLD, firstLine: iso(0), since: iso(120), previous: NEW });
    expect(newIn(after.json)).toEqual({ [OLD_BUG]: null, [NEW_BUG]: null, [ROLLBACK_BUG]: OLD });
  });
});
