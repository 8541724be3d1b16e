import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LogLine } from '../../shared/log-line.ts';
import { jsonLines, runDigest, tempDir, writeLog } from '../support/digest-cli.ts';
import { fail, SPARKLINE, type Failure } from '../support/digest-cli-fixture.ts';
import { createTestApp } from '../support/test-app.ts';

// The digest tool across a fleet (docs/operating.md, "Across replicas"): the logs of two real
// replicas as kubectl, docker compose, podman-compose and Loki hand them over, each occurrence
// attributed to its replica; `top --by`; and a digest new in the newest release.

interface Replica {
  lines: LogLine[];
  failure: Failure;
}

/** A replica that failed `times` times on one route; its lines without `replica`, as a release before that field wrote them. */
async function replica(times: number, env: Record<string, string> = {}): Promise<Replica> {
  const { app, logs } = createTestApp(env);
  const failure = await fail(app, '/_diag/server-error', times);
  await request(app).get('/fixture/plain').expect(200);
  return { lines: logs.lines.map(({ replica: _name, ...line }) => line as LogLine), failure };
}

const text = (lines: readonly LogLine[], prefix: (json: string) => string) =>
  lines.map((line) => prefix(JSON.stringify(line))).join('\n') + '\n';
const ESC = '\x1b';

let one: Replica;
let two: Replica;
let dir: string;

beforeAll(async () => {
  one = await replica(3);
  two = await replica(2);
  expect(one.failure.digest).toBe(two.failure.digest);
  dir = tempDir();
});

/** The lookup's `replicas` row, as printed. */
const replicasRow = (stdout: string) => /^ {2}replicas {4}(.*)$/m.exec(stdout)?.[1];

describe('reading many replicas at once', () => {
  it('attributes each occurrence to the pod kubectl logs --prefix names, with and without --timestamps', () => {
    const log = writeLog(
      dir,
      'kubectl.log',
      text(one.lines, (json) => `[pod/react-ssr-host-7d9f8b6c5d-x2k4q/app] ${json}`) +
        text(two.lines, (json) => `[pod/react-ssr-host-7d9f8b6c5d-p9m3z/app] 2026-11-22T05:12:33.213456789Z ${json}`),
    );
    const run = runDigest([one.failure.digest, log]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('5 occurrences');
    expect(replicasRow(run.stdout)).toBe('react-ssr-host-7d9f8b6c5d-x2k4q ×3, react-ssr-host-7d9f8b6c5d-p9m3z ×2');
    expect(run.stderr).not.toContain('skipped');
  });

  it('reads docker compose logs (coloured) and podman-compose logs from two files together', () => {
    const compose = writeLog(
      dir,
      'compose.log',
      text(one.lines, (json) => `${ESC}[36mapp1-1  |${ESC}[0m ${json}`),
    );
    const podman = writeLog(dir, 'podman.log', `app2-1 | npm WARN config\n${text(two.lines, (json) => `deploy_app2_1 ${json}`)}`);
    const run = runDigest([one.failure.digest, '--json', compose, podman]);
    const [match] = JSON.parse(run.stdout).matches;
    expect(match.replicas).toEqual([
      { value: 'app1-1', count: 3 },
      { value: 'deploy_app2_1', count: 2 },
    ]);
    expect(match.requests[0].replica).toBe('deploy_app2_1');
    expect(run.stderr).toContain('skipped 1 non-JSON line');
  });

  it("prefers the line's own replica to its wrapper's name", async () => {
    const named = await replica(1, { REPLICA: 'web-7' });
    const withField = named.lines.map((line) => ({ ...line, replica: 'web-7' }));
    const log = writeLog(
      dir,
      'own.log',
      text(withField, (json) => `[pod/some-pod/app] ${json}`),
    );
    expect(replicasRow(runDigest([one.failure.digest, log]).stdout)).toBe('web-7 ×1');
  });

  it("reads Loki's logcli --output=jsonl and its query_range JSON, attributed by the pod label", () => {
    const jsonl = one.lines.map((line) =>
      JSON.stringify({ labels: { app: 'react-ssr-host', pod: 'pod-a' }, line: JSON.stringify(line), timestamp: new Date().toISOString() }),
    );
    const rangeResponse = {
      status: 'success',
      data: {
        resultType: 'streams',
        result: [
          {
            stream: { app: 'react-ssr-host', pod: 'pod-b' },
            values: two.lines.map((line) => [`${Date.now()}000000`, JSON.stringify(line)]),
          },
        ],
      },
    };
    const jsonlFile = writeLog(dir, 'loki.jsonl', `${jsonl.join('\n')}\n`);
    // A second page of the answer that came back empty: no lines, none skipped.
    const empty = { status: 'success', data: { resultType: 'streams', result: [] } };
    const rangeFile = writeLog(dir, 'loki-range.json', `${JSON.stringify(rangeResponse)}\n${JSON.stringify(empty)}\n`);
    const run = runDigest([one.failure.digest, jsonlFile, rangeFile]);
    expect(run.status).toBe(0);
    expect(run.stderr).not.toContain('skipped');
    expect(replicasRow(run.stdout)).toBe('pod-a ×3, pod-b ×2');
    const top = runDigest(['top', '--by', 'replica', jsonlFile, rangeFile]);
    expect(top.stdout).toContain('Top 2 by replica of 1 digest (5 occurrences)');
  });
});

describe('digest top across replicas and releases', () => {
  it('groups rows by replica with --by replica, the busiest replica first', () => {
    const log = writeLog(
      dir,
      'by-replica.log',
      text(two.lines, (json) => `app2-1  | ${json}`) + text(one.lines, (json) => `app1-1  | ${json}`),
    );
    const run = runDigest(['top', '--by', 'replica', log]);
    const rows = run.stdout.split('\n').filter((line) => SPARKLINE.test(line));
    expect(rows.map((row) => row.trim().split(/\s+/).slice(0, 3))).toEqual([
      ['app1-1', '3', one.failure.digest],
      ['app2-1', '2', one.failure.digest],
    ]);
    expect(run.stdout.split('\n')[1]).toMatch(/^REPLICA\s+COUNT\s+DIGEST/);
  });

  it('marks a digest first seen in the newest release as "new in" it, and groups by release on request', async () => {
    const later = createTestApp({ RELEASE: 'shop@2.0.0' });
    const again = await fail(later.app, '/_diag/server-error', 1);
    const fresh = await fail(later.app, '/_diag/api-error', 2);
    const log = writeLog(dir, 'releases.log', jsonLines([...one.lines, ...later.logs.lines]));

    const run = runDigest(['top', log]);
    const rows = run.stdout.split('\n').filter((line) => SPARKLINE.test(line));
    expect(rows.find((row) => row.includes(fresh.digest))).toMatch(/new in shop@2\.0\.0$/);
    expect(rows.find((row) => row.includes(again.digest))).not.toContain('new in');
    expect(run.stdout).toContain('Newest release shop@2.0.0, first line ');

    const json = JSON.parse(runDigest(['top', '--json', '--by', 'release', log]).stdout);
    expect(json.newestRelease.release).toBe('shop@2.0.0');
    const cells = json.digests.map((row: { group: string; digest: string; count: number; newIn: string | null }) => [
      row.group,
      row.digest,
      row.count,
      row.newIn,
    ]);
    expect(cells).toEqual(
      expect.arrayContaining([
        ['react-ssr-host@dev', again.digest, 3, null],
        ['shop@2.0.0', fresh.digest, 2, 'shop@2.0.0'],
        ['shop@2.0.0', again.digest, 1, null],
      ]),
    );
    const lookup = runDigest([fresh.digest, log]);
    expect(lookup.stdout).toMatch(/^ {2}first in {4}shop@2\.0\.0$/m);
  });

  it('refuses a --by it does not know, and --by outside top', () => {
    expect(runDigest(['top', '--by', 'pod', 'x.log'])).toMatchObject({ status: 2, stderr: expect.stringContaining("invalid --by 'pod'") });
    expect(runDigest(['S14njVL8koFx6mQ_', '--by', 'replica', 'x.log']).status).toBe(2);
  });
});
