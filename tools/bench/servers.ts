// The servers the rounds load (cases.ts), all running at once, each its own process pinned to the
// servers' core and idle while another is loaded: the host serving the bench app and the demo,
// @react-router/express serving the bench app's same build, bare Express's fixed page, and with
// --baseline the previous main's host. Each log goes to a file, as a log shipper would read it,
// and its growth is weighed per response.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAppServer } from './app-server.ts';
import { BENCH_APP_BUILD } from './bench-app.ts';
import { buildSnapshot } from './build-snapshot.ts';
import type { ServerKey } from './cases.ts';
import { startExpressFloor, startReactRouterFloor } from './floors.ts';
import { memoryMb } from './proc.ts';
import type { BenchServer, Servers } from './rounds.ts';
import type { RunningServer } from '../harness/spawn.ts';

export interface Baseline {
  dir: string;
  /** Its commit, as `git describe` names it, for the report. */
  commit: string;
  serverEntry: string;
}

/**
 * Another checkout's built host (a checkout of main): built there first if it has no build
 * (`npm run build`, the one thing done in it), then copied like ours (build-snapshot.ts).
 */
export async function prepareBaseline(dir: string): Promise<Baseline> {
  if (!existsSync(join(dir, 'package.json'))) throw new Error(`--baseline ${dir} is not a checkout of this project`);
  if (!existsSync(join(dir, 'dist/server/index.js'))) {
    console.log(`bench: ${dir} has no build: npm run build there`);
    execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const commit = execFileSync('git', ['-C', dir, 'describe', '--always', '--dirty'], { encoding: 'utf8' }).trim();
  return { dir, commit, serverEntry: (await buildSnapshot(dir)).serverEntry };
}

export interface RunServers {
  servers: Servers;
  /** Peak RSS (VmHWM) of each, read before they stop. */
  peakRssMb(): Partial<Record<ServerKey, number>>;
  stop(): Promise<void>;
}

/** Starts them one after another (a start takes a core for a second), stopping those started if one fails. */
export async function startServers(logLevel: string, cpus: string | undefined, baseline?: Baseline): Promise<RunServers> {
  const logDir = mkdtempSync(join(tmpdir(), 'bench-log-'));
  const started: [ServerKey, BenchServer][] = [];
  const withLog = async (key: ServerKey, start: (logFile: string) => Promise<RunningServer>) => {
    const logFile = join(logDir, `${key}.log`);
    started.push([key, { server: await start(logFile), logBytes: () => statSync(logFile).size }]);
  };
  const stop = async () => {
    const exits = await Promise.all(started.map(async ([key, { server }]) => [key, await server.stop(), server] as const));
    rmSync(logDir, { recursive: true, force: true });
    // Our servers must stop cleanly on SIGTERM, as in production; a floor's exit is not ours to judge.
    for (const [key, exit, server] of exits)
      if (['host', 'demo', 'main'].includes(key) && exit.code !== 0)
        throw new Error(`the ${key} server exited with ${exit.code ?? exit.signal} on SIGTERM:\n${server.stderr()}`);
  };
  try {
    await withLog('host', (stdoutFile) => startAppServer({ logLevel, stdoutFile, cpus, appBuild: BENCH_APP_BUILD }));
    await withLog('reactRouter', (logFile) => startReactRouterFloor(BENCH_APP_BUILD, logFile, cpus));
    await withLog('demo', (stdoutFile) => startAppServer({ logLevel, stdoutFile, cpus }));
    started.push(['fixedPage', { server: await startExpressFloor(cpus) }]);
    if (baseline) await withLog('main', (stdoutFile) => startAppServer({ logLevel, stdoutFile, cpus, serverEntry: baseline.serverEntry }));
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
  return {
    servers: Object.fromEntries(started),
    peakRssMb: () => Object.fromEntries(started.map(([key, { server }]) => [key, memoryMb(server.pid, 'VmHWM')])),
    stop,
  };
}
