import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { LogCapture } from './logs.ts';

export const ROOT = join(import.meta.dirname, '../..');

export interface SpawnedServer {
  child: ChildProcess;
  logs: LogCapture;
  stderr: () => string;
  url: string;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs a command that starts the built server (PORT=0) and waits for its "listening" line.
 * The readiness delay before a drain (SHUTDOWN_DELAY_MS) is 0 unless a test sets it: it only
 * matters behind a load balancer. The command runs in a process group of its own, as a terminal
 * does: a test can signal the whole group the way Ctrl-C does, and `stop` signals the group, so
 * a server started through `npm start` (npm → sh → node) never outlives its test.
 */
export async function spawnServer(env: Record<string, string> = {}, command = ['node', 'dist/server/index.js']): Promise<SpawnedServer> {
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, args, {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', SHUTDOWN_DELAY_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const logs = new LogCapture();
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => logs.push(text));
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = await Promise.race([
    logs.waitFor((line) => typeof line.port === 'number' && String(line.msg).startsWith('listening'), 30_000),
    exited.then((code) => {
      throw new Error(`server exited with ${code} before listening: ${stderr}`);
    }),
  ]);
  return {
    child,
    logs,
    stderr: () => stderr,
    url: `http://127.0.0.1:${listening.port as number}`,
    exited,
    stop(signal = 'SIGTERM') {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // ESRCH: every process of the group has exited already.
      }
      return exited;
    },
  };
}
