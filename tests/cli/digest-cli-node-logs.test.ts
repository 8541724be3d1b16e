import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES } from '../../cli/line-splitter.ts';
import type { LogLine } from '../../shared/log-line.ts';
import { runDigest, tempDir, writeLog } from '../support/digest-cli.ts';
import { fail, type Failure } from '../support/digest-cli-fixture.ts';
import { createTestApp } from '../support/test-app.ts';

// The digest tool over the files a node keeps (docs/operating.md, "Across replicas"): Kubernetes'
// CRI logs (/var/log/pods/…/0.log) and Docker's json-file logs, as they are on disk, with the
// lines the runtime split into parts joined again.

let lines: string[];
let failure: Failure;
let dir: string;

beforeAll(async () => {
  const { app, logs } = createTestApp({ REPLICA: 'node-pod-1' });
  failure = await fail(app, '/_diag/server-error', 3);
  lines = logs.lines.map((line: LogLine) => JSON.stringify(line));
  dir = tempDir();
});

const CRI_TIME = '2026-11-22T05:12:33.213456789Z';
const cri = (stream: 'stdout' | 'stderr', tag: 'F' | 'P', content: string) => `${CRI_TIME} ${stream} ${tag} ${content}\n`;
const docker = (log: string, stream = 'stdout') => `${JSON.stringify({ log, stream, time: CRI_TIME })}\n`;
/** The last failure line, in three parts, as a runtime splits a line over its size (16 KiB). */
const thirds = (line: string) => [line.slice(0, 100), line.slice(100, 200), line.slice(200)];
const lastFailure = () => lines.findLastIndex((line) => line.includes('"error"'));

function lookup(file: string): { occurrences: string | undefined; replicas: string | undefined; stderr: string } {
  const run = runDigest([failure.digest, file]);
  expect(run.status).toBe(0);
  return {
    occurrences: / — (\d+ occurrences?)/.exec(run.stdout)?.[1],
    replicas: /^ {2}replicas {4}(.*)$/m.exec(run.stdout)?.[1],
    stderr: run.stderr,
  };
}

describe("a node's container log files", () => {
  it('reads CRI logs, joining a line split into parts (P) up to its last (F), stream by stream', () => {
    const split = lastFailure();
    const [first, second, third] = thirds(lines[split]!);
    const text = lines
      .map((line, index) =>
        index !== split
          ? cri('stdout', 'F', line)
          : // stderr's parts come between stdout's: each stream's parts are its own line.
            cri('stdout', 'P', first!) +
            cri('stderr', 'P', 'Warning: a deprecated ') +
            cri('stdout', 'P', second!) +
            cri('stderr', 'F', 'option') +
            cri('stdout', 'F', third!),
      )
      .join('');
    // The last line's end never came (the file was rotated, or the process killed, mid-line).
    const log = writeLog(dir, '0.log', `${text}${cri('stdout', 'P', '{"level":50,"digest":"')}`);
    expect(lookup(log)).toEqual({
      occurrences: '3 occurrences',
      replicas: 'node-pod-1 ×3',
      stderr: expect.stringContaining('skipped 2 non-JSON lines'),
    });
  });

  it("reads Docker's json-file logs, joining a line whose parts' log does not end in a newline", () => {
    const split = lastFailure();
    const text = lines
      .map((line, index) =>
        index !== split
          ? docker(`${line}\n`)
          : thirds(`${line}\n`)
              .map((part) => docker(part))
              .join(''),
      )
      .join('');
    const log = writeLog(dir, 'container-json.log', docker('npm notice\n', 'stderr') + text);
    expect(lookup(log)).toEqual({
      occurrences: '3 occurrences',
      replicas: 'node-pod-1 ×3',
      stderr: expect.stringContaining('skipped 1 non-JSON line'),
    });
  });

  it('bounds a line joined from parts as a line read whole, and reads on', () => {
    const path = join(dir, 'parts.log');
    const fd = openSync(path, 'w');
    const part = 'x'.repeat(1024 * 1024);
    writeSync(fd, cri('stdout', 'P', '{"level":30,"msg":"'));
    for (let written = 0; written <= MAX_LINE_BYTES; written += part.length) writeSync(fd, cri('stdout', 'P', part));
    writeSync(fd, cri('stdout', 'F', '"}') + lines.map((line) => cri('stdout', 'F', line)).join(''));
    closeSync(fd);
    const run = runDigest(['top', '--json', path]);
    expect(JSON.parse(run.stdout)).toMatchObject({ totalOccurrences: 3, skipped: { notJson: 0, tooLong: 1 } });
  });
});
