// Starts a server as a process of its own and waits until it is ready: the built host (tests,
// bench, soak) and `npm start` listen on port 0 and report the port they got in their
// "listening" line, so no port is picked, released and raced for; a bench floor (or a host
// whose log goes to a file) gets a free port and is ready when /healthz answers 200.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { LISTENING_PREFIX } from '../../shared/log-line.ts';
import { freePort, HOST, sleep } from './net.ts';
import { ROOT } from './paths.ts';
import { ServerLog } from './server-log.ts';

/** A built server answers in about 1.6 s here (docs/reference-facts.md); allow for a busy 2-core machine. */
const READY_TIMEOUT_MS = 30_000;
/** Fine enough to time a cold start to ~10 ms without stealing the starting server's core. */
const READY_POLL_MS = 10;
/** One health probe; loopback answers in well under a millisecond when the server is up. */
const PROBE_TIMEOUT_MS = 1_000;
/** The server's default shutdown takes at most 9.5 s (2 s delay, 5 s grace, 2 s of Sentry, 0.5 s of log lines); past that plus slack, kill. */
const STOP_TIMEOUT_MS = 15_000;
/** A server that fails to start says why on stdout (a boot failure or fault line): its last lines go in the error. */
const FAILURE_TAIL_LINES = 5;
/** How long to wait for a failed child's stdout to be read to its end before reporting. */
const FAILURE_DRAIN_MS = 1_000;

export interface SpawnOptions {
  /** The command; `node` is this Node. Default: the built server, `node dist/server/index.js`. */
  command?: readonly string[];
  /** Added to this process's environment, after NODE_ENV=production, HOST and PORT. */
  env?: Record<string, string>;
  /** A file that receives stdout as the process writes it (the bench weighs the log this way); else `log` reads it. */
  stdoutFile?: string;
  /** A file that receives stderr (a bench floor that logs its failures there, as React Router's does); else `stderr()` holds it. */
  stderrFile?: string;
  /** Keep every parsed line in `logs.lines` (tests); the soak only needs the indexes. Default true. */
  keepLines?: boolean;
  /** The log to fill, for a caller that watches the boot before the server is ready; else a new one. */
  logs?: ServerLog;
  /** CPUs the process may run on (`taskset -c` syntax, e.g. "1"); unset: any. */
  cpus?: string;
  /** `healthz` for a server that writes no listening line (the bench floors). Default: its listening line. */
  readyOn?: 'listening-line' | 'healthz';
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningServer {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly url: string;
  readonly logs: ServerLog;
  /** performance.now() at spawn and when it was ready (its listening line, or the first 200 from /healthz). */
  readonly spawnedAt: number;
  readonly readyAt: number;
  /** Resolves when the process has exited and its stdout has been read to the end. */
  readonly exited: Promise<Exit>;
  isRunning(): boolean;
  stderr(): string;
  /** Signals the process group (npm → sh → node included); SIGKILL if it has not exited in time. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

/**
 * Where the test run lists the process groups it started (set by tests/support/global-setup.ts,
 * which kills whatever is still listed when the run ends: a worker killed by a signal cannot
 * clean up after itself).
 */
export const PROCESS_GROUPS_DIR_ENV = 'REACT_SSR_HOST_PROCESS_GROUPS';

// Only the process groups started here are ever killed: on this process's exit, or on a signal
// that would end it, after which the signal is delivered again to end it as it would have.
const groups = new Set<number>();
const killAll = () => groups.forEach((pid) => signalGroup(pid, 'SIGKILL'));
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    killAll();
    process.kill(process.pid, signal);
  });
}

function track(pid: number, started: boolean): void {
  const dir = process.env[PROCESS_GROUPS_DIR_ENV];
  if (started) groups.add(pid);
  else groups.delete(pid);
  if (dir === undefined) return;
  if (started) writeFileSync(join(dir, String(pid)), '');
  else rmSync(join(dir, String(pid)), { force: true });
}

export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: every process of the group has exited already.
  }
}

function isHealthy(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(`${url}/healthz`, { agent: false, timeout: PROBE_TIMEOUT_MS }, (res) => {
      res.resume();
      // 'close' comes however the response ends: a stalled body cut by the timeout is not healthy.
      res.on('close', () => resolve(res.complete && res.statusCode === 200));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

function serverEnv(port: number, env: Record<string, string>): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', HOST, PORT: String(port) };
  // Sentry stays off unless asked for: a DSN inherited from the shell would send real events.
  delete merged.SENTRY_DSN;
  // A database of its own, in memory, unless asked for a file: never the project's data/ (docs/data.md, "Tests").
  merged.DATABASE_PATH = ':memory:';
  return { ...merged, ...env };
}

export async function spawnServer(options: SpawnOptions = {}): Promise<RunningServer> {
  const [program = 'node', ...args] = options.command ?? ['node', 'dist/server/index.js'];
  const file = program === 'node' ? process.execPath : program;
  // The listening line is written at info: a quieter server is ready when /healthz answers.
  const quiet = ['warn', 'error', 'fatal', 'silent'].includes(options.env?.LOG_LEVEL ?? 'info');
  const fromLine = options.readyOn !== 'healthz' && options.stdoutFile === undefined && !quiet;
  const port = fromLine ? 0 : await freePort();
  const spawnedAt = performance.now();
  // taskset execs the program in place, so the child's pid is the server's own (its CPU time is read by pid).
  const [command, commandArgs] = options.cpus === undefined ? [file, args] : ['taskset', ['-c', options.cpus, file, ...args]];
  const stdoutFd = options.stdoutFile === undefined ? undefined : openSync(options.stdoutFile, 'a');
  const stderrFd = options.stderrFile === undefined ? undefined : openSync(options.stderrFile, 'a');
  // A process group of its own, as a terminal gives: stop() and a test's Ctrl-C reach npm's node too.
  const child = spawn(command, commandArgs, {
    cwd: ROOT,
    env: serverEnv(port, options.env ?? {}),
    stdio: ['ignore', stdoutFd ?? 'pipe', stderrFd ?? 'pipe'],
    detached: true,
  });
  for (const fd of [stdoutFd, stderrFd]) if (fd !== undefined) closeSync(fd); // the child holds its own copy
  track(child.pid!, true);
  const logs = options.logs ?? new ServerLog(options.keepLines ?? true);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const stdoutDone = new Promise<void>((resolve) => {
    if (!child.stdout) return resolve();
    child.stdout
      .setEncoding('utf8')
      .on('data', logs.write)
      .on('end', () => {
        logs.end();
        resolve();
      });
  });
  let running = true;
  const exit = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => {
      running = false;
      resolve({ code, signal });
    }),
  );
  const exited = Promise.all([exit, stdoutDone]).then(([result]) => {
    track(child.pid!, false);
    return result;
  });

  const shown = [program, ...args].join(' ');
  const fail = async (why: string) => {
    signalGroup(child.pid!, 'SIGKILL');
    await Promise.race([stdoutDone, sleep(FAILURE_DRAIN_MS)]);
    const stdout = [...logs.notJson, ...logs.raw].slice(-FAILURE_TAIL_LINES).join('\n');
    return new Error(`${shown} ${why}:\n${stderr}${stdout === '' ? '' : `last stdout lines:\n${stdout}`}`);
  };
  let url: string;
  if (fromLine) {
    const listening = logs.waitFor((line) => typeof line.msg === 'string' && line.msg.startsWith(LISTENING_PREFIX), READY_TIMEOUT_MS);
    const early = exit.then((): never => {
      throw new Error(`exited with ${child.exitCode} before it was ready`);
    });
    early.catch(() => undefined); // once listening, the later exit is stop()'s business
    try {
      const line = await Promise.race([listening, early]);
      url = `http://${HOST}:${String(line.port)}`;
    } catch (error) {
      throw await fail((error as Error).message);
    }
  } else {
    url = `http://${HOST}:${port}`;
    while (!(await isHealthy(url))) {
      if (!running) throw await fail(`exited with ${child.exitCode} before it was ready`);
      if (performance.now() - spawnedAt > READY_TIMEOUT_MS) throw await fail(`did not answer /healthz within ${READY_TIMEOUT_MS} ms`);
      await sleep(READY_POLL_MS);
    }
  }
  return {
    child,
    pid: child.pid!,
    url,
    logs,
    spawnedAt,
    readyAt: performance.now(),
    exited,
    isRunning: () => running,
    stderr: () => stderr,
    stop(signal = 'SIGTERM') {
      if (!groups.has(child.pid!)) return exited;
      signalGroup(child.pid!, signal);
      const deadline = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), STOP_TIMEOUT_MS);
      return exited.finally(() => clearTimeout(deadline));
    },
  };
}
