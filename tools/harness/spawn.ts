// Starts a server as a process of its own on a free loopback port and waits until /healthz
// answers 200: the built host (tests, bench, soak), `npm start`, or a bench floor.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { request } from 'node:http';
import { freePort, HOST, sleep } from './net.ts';
import { ROOT } from './paths.ts';
import { ServerLog } from './server-log.ts';

/** A built server answers in about 1.6 s here (docs/reference-facts.md); allow for a busy 2-core machine. */
const READY_TIMEOUT_MS = 30_000;
/** Fine enough to time a cold start to ~10 ms without stealing the starting server's core. */
const READY_POLL_MS = 10;
/** One health probe; loopback answers in well under a millisecond when the server is up. */
const PROBE_TIMEOUT_MS = 1_000;
/** The server's default shutdown takes at most 9 s (2 s delay, 5 s grace, 2 s flush); past that plus slack, kill. */
const STOP_TIMEOUT_MS = 15_000;

export interface SpawnOptions {
  /** The command; `node` is this Node. Default: the built server, `node dist/server/index.js`. */
  command?: readonly string[];
  /** Added to this process's environment, after NODE_ENV=production, HOST and PORT. */
  env?: Record<string, string>;
  /** A file that receives stdout as the process writes it (the bench weighs the log this way); else `log` reads it. */
  stdoutFile?: string;
  /** Keep every parsed line in `logs.lines` (tests); the soak only needs the indexes. Default true. */
  keepLines?: boolean;
  /** CPUs the process may run on (`taskset -c` syntax, e.g. "1"); unset: any. */
  cpus?: string;
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
  /** performance.now() at spawn and at the first 200 from /healthz. */
  readonly spawnedAt: number;
  readonly readyAt: number;
  /** Resolves when the process has exited and its stdout has been read to the end. */
  readonly exited: Promise<Exit>;
  isRunning(): boolean;
  stderr(): string;
  /** Signals the process group (npm → sh → node included); SIGKILL if it has not exited in time. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

// Only the process groups started here are ever killed, and only if this process dies first.
const groups = new Set<number>();
process.on('exit', () => groups.forEach((pid) => signalGroup(pid, 'SIGKILL')));

function signalGroup(pid: number, signal: NodeJS.Signals): void {
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
      res.on('end', () => resolve(res.statusCode === 200));
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
  return { ...merged, ...env };
}

export async function spawnServer(options: SpawnOptions = {}): Promise<RunningServer> {
  const [program = 'node', ...args] = options.command ?? ['node', 'dist/server/index.js'];
  const file = program === 'node' ? process.execPath : program;
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const spawnedAt = performance.now();
  // taskset execs the program in place, so the child's pid is the server's own (its CPU time is read by pid).
  const [command, commandArgs] = options.cpus === undefined ? [file, args] : ['taskset', ['-c', options.cpus, file, ...args]];
  const stdoutFd = options.stdoutFile === undefined ? undefined : openSync(options.stdoutFile, 'a');
  // A process group of its own, as a terminal gives: stop() and a test's Ctrl-C reach npm's node too.
  const child = spawn(command, commandArgs, {
    cwd: ROOT,
    env: serverEnv(port, options.env ?? {}),
    stdio: ['ignore', stdoutFd ?? 'pipe', 'pipe'],
    detached: true,
  });
  if (stdoutFd !== undefined) closeSync(stdoutFd); // the child holds its own copy
  groups.add(child.pid!);
  const logs = new ServerLog(options.keepLines ?? true);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const stdoutDone = new Promise<void>((resolve) => {
    if (!child.stdout) return resolve();
    child.stdout.setEncoding('utf8').on('data', logs.write).on('end', resolve);
  });
  let running = true;
  const exit = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => {
      running = false;
      resolve({ code, signal });
    }),
  );
  const exited = Promise.all([exit, stdoutDone]).then(([result]) => {
    groups.delete(child.pid!);
    return result;
  });

  while (!(await isHealthy(url))) {
    if (!running) throw new Error(`${[program, ...args].join(' ')} exited with ${child.exitCode} before it was ready:\n${stderr}`);
    if (performance.now() - spawnedAt > READY_TIMEOUT_MS) {
      signalGroup(child.pid!, 'SIGKILL');
      throw new Error(`${[program, ...args].join(' ')} did not answer /healthz within ${READY_TIMEOUT_MS} ms:\n${stderr}`);
    }
    await sleep(READY_POLL_MS);
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
