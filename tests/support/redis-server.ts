import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'node:net';
import { freePort, HOST, sleep } from '../../tools/harness/net.ts';

/** Debian's redis-server (`apt-get install -y redis-server`; .ci/run installs it); REDIS_SERVER overrides. */
const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
/** Redis starts in milliseconds; past this it is not going to. */
const START_WITHIN_MS = 5_000;

export interface RunningRedis {
  url: string;
  /** SIGKILL, as a crash or a lost node: no goodbye to the clients. */
  kill(): Promise<void>;
  /** SIGSTOP: its connections stay open and nothing answers, as a Redis stalled or a host frozen. */
  pause(): void;
  /** SIGCONT: it answers again, what was sent meanwhile first. */
  resume(): void;
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: HOST, port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/**
 * A Redis of the test's own, on a free port (or `port`: one back where another was), in a
 * temporary directory, persisting nothing; `settings`: more of its command line (`--maxmemory 2mb`).
 */
export async function startRedis(port?: number, settings: string[] = []): Promise<RunningRedis> {
  port ??= await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'redis-test-'));
  const child: ChildProcess = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', HOST, '--dir', dir, '--save', '', '--appendonly', 'no', ...settings],
    {
      stdio: 'ignore',
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const started = Date.now();
  while (!(await answers(port))) {
    if (Date.now() - started > START_WITHIN_MS) throw new Error(`${REDIS_SERVER} did not listen on ${port}`);
    await sleep(20);
  }
  return {
    url: `redis://${HOST}:${port}`,
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
