import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { ROOT } from '../../tools/harness/paths.ts';
import { jsonDigest, pageDigest } from '../../tools/harness/digests.ts';

// Running the digest CLI the way an operator does, and the log files it reads.

export const DIGEST_SOURCE = join(ROOT, 'cli/digest.ts');
export const DIGEST_BIN = join(ROOT, 'dist/cli/digest.js');

export interface DigestRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface DigestOptions {
  input?: string | Buffer;
  entry?: string;
  cwd?: string;
  /**
   * Kill the tool after this long (its status is then null). spawnSync blocks the test's event
   * loop, so vitest's own timeout cannot end a run that would never finish: pass the test's.
   */
  killAfterMs?: number;
}

/**
 * The tool as an operator runs it: the build (`npm run build`, done by the tests' global setup;
 * it starts in a tenth of the time tsx takes), another copy of it given as `entry`, or its
 * source through tsx (`npm run digest`) with `entry: 'source'`.
 */
export function runDigest(args: string[], options: DigestOptions = {}): DigestRun {
  const entry = options.entry === 'source' ? ['--import', 'tsx', DIGEST_SOURCE] : [options.entry ?? DIGEST_BIN];
  const run = spawnSync(process.execPath, [...entry, ...args], {
    cwd: options.cwd ?? ROOT,
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: options.killAfterMs,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'digest-cli-'));
}

/** Log lines as the server writes them: one JSON object per line. */
export function jsonLines(lines: readonly object[]): string {
  return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
}

export function writeLog(dir: string, name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** The digest a user would quote: from the JSON error body or the error page's <code>. */
export function digestOf(res: Response): string {
  const digest = jsonDigest(res.body) ?? pageDigest(res.text);
  if (digest === undefined) throw new Error(`no digest in the ${res.status} response`);
  return digest;
}
