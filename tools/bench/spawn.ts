// Starts a server as its own process on a free loopback port and waits until /healthz answers
// 200. Shared by the bench (our server and both floors) and the soak.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const HOST = '127.0.0.1';
export const ROOT = join(import.meta.dirname, '../..');

/** A built server answers in about 1.6 s here (docs/reference-facts.md); allow for a busy 2-core machine. */
const READY_TIMEOUT_MS = 30_000;
/** Fine enough to time a cold start to ~10 ms without stealing the starting server's core. */
const READY_POLL_MS = 10;
/** One health probe; loopback answers in well under a millisecond when the server is up. */
const PROBE_TIMEOUT_MS = 1_000;
/** The server's default shutdown takes at most 9 s (2 s delay, 5 s grace, 2 s flush); past that plus slack, kill. */
const STOP_TIMEOUT_MS = 15_000;

export interface SpawnOptions {
  /** Arguments to `node` (the script and its flags). */
  args: string[];
  env: Record<string, string>;
  /** Receives stdout line by line; without it stdout goes to `stdoutFile`, else /dev/null. */
  onLine?: (line: string) => void;
  /** A file that receives stdout as the process writes it: the bench weighs the log this way. */
  stdoutFile?: string;
  /** CPUs the process may run on (`taskset -c` syntax, e.g. "1"); unset: any. */
  cpus?: string;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningServer {
  readonly pid: number;
  readonly url: string;
  /** performance.now() at spawn and at the first 200 from /healthz. */
  readonly spawnedAt: number;
  readonly readyAt: number;
  /** Resolves when the process has exited and its stdout has been read to the end. */
  readonly exited: Promise<Exit>;
  isRunning(): boolean;
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

// Only the processes started here are ever killed, and only if the script dies first.
const children = new Set<ChildProcess>();
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
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
  const merged: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', HOST, PORT: String(port), ...env };
  // Sentry stays off: a DSN inherited from the shell would send real events.
  delete merged.SENTRY_DSN;
  return merged;
}

function watchExit(child: ChildProcess, onLine: SpawnOptions['onLine']): Promise<Exit> {
  const stdoutDone = new Promise<void>((resolve) => {
    if (!onLine || !child.stdout) return resolve();
    createInterface({ input: child.stdout }).on('line', onLine).on('close', resolve);
  });
  const exit = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return Promise.all([exit, stdoutDone]).then(([result]) => {
    children.delete(child);
    return result;
  });
}

export async function spawnServer(options: SpawnOptions): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const spawnedAt = performance.now();
  // taskset execs node in place, so the child's pid is the server's own (its CPU time is read by pid).
  const [command, args] = options.cpus === undefined ? [process.execPath, options.args] : ['taskset', ['-c', options.cpus, process.execPath, ...options.args]];
  const stdoutFd = options.onLine || options.stdoutFile === undefined ? undefined : openSync(options.stdoutFile, 'a');
  const child = spawn(command, args, {
    cwd: ROOT,
    env: serverEnv(port, options.env),
    stdio: ['ignore', options.onLine ? 'pipe' : (stdoutFd ?? 'ignore'), 'pipe'],
  });
  if (stdoutFd !== undefined) closeSync(stdoutFd); // the child holds its own copy
  children.add(child);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  let running = true;
  child.once('exit', () => (running = false));
  const exited = watchExit(child, options.onLine);

  while (!(await isHealthy(url))) {
    if (!running) throw new Error(`${options.args.join(' ')} exited before it was ready:\n${stderr}`);
    if (performance.now() - spawnedAt > READY_TIMEOUT_MS) {
      child.kill('SIGKILL');
      throw new Error(`${options.args.join(' ')} did not answer /healthz within ${READY_TIMEOUT_MS} ms`);
    }
    await sleep(READY_POLL_MS);
  }
  return {
    pid: child.pid!,
    url,
    spawnedAt,
    readyAt: performance.now(),
    exited,
    isRunning: () => running,
    stderr: () => stderr,
    stop(signal = 'SIGTERM') {
      if (!running) return exited;
      child.kill(signal);
      const deadline = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      return exited.finally(() => clearTimeout(deadline));
    },
  };
}
