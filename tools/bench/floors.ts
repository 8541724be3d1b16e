// Starts the floors as processes of their own, so each gets a core as our server does.
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryMb } from './proc.ts';
import { spawnServer, type RunningServer } from '../harness/spawn.ts';

const HERE = 'tools/bench';

/** node:http answering `html` (the streamed page's bytes) on every path. */
export async function startHttpFloor(html: string, cpus?: string): Promise<RunningServer> {
  const bodyFile = join(tmpdir(), `bench-floor-body-${process.pid}.html`);
  writeFileSync(bodyFile, html);
  try {
    return await spawnServer({ command: withTsx(`${HERE}/floor-http.ts`), env: { FLOOR_BODY_FILE: bodyFile }, cpus, readyOn: 'healthz' });
  } finally {
    rmSync(bodyFile, { force: true }); // read once at start
  }
}

/**
 * The bench app's build on @react-router/express alone (floor-react-router.ts); what React
 * Router logs of a failure (its handleError's console.error) goes to `logFile`, as our server's
 * lines go to a file of theirs.
 */
export function startReactRouterFloor(appBuild: string, logFile: string, cpus?: string): Promise<RunningServer> {
  return spawnServer({
    command: withTsx(`${HERE}/floor-react-router.ts`),
    env: { APP_BUILD: appBuild },
    stdoutFile: logFile,
    stderrFile: logFile,
    cpus,
    readyOn: 'healthz',
  });
}

/** Express + React alone, no router and nothing of ours (floor-bare.tsx). */
export function startBareFloor(cpus?: string): Promise<RunningServer> {
  return spawnServer({ command: withTsx(`${HERE}/floor-bare.tsx`), cpus, readyOn: 'healthz' });
}

/** Bare Express: a fixed 10 KB page on /page, Express's own 404 elsewhere (floor-express.ts). */
export function startExpressFloor(cpus?: string): Promise<RunningServer> {
  return spawnServer({ command: withTsx(`${HERE}/floor-express.ts`), cpus, readyOn: 'healthz' });
}

/** The failure floor (floor-failure.tsx); its pino lines go to `stdoutFile`, as our server's do in the bench. */
export function startFailureFloor(stdoutFile: string, cpus?: string): Promise<RunningServer> {
  return spawnServer({ command: withTsx(`${HERE}/floor-failure.tsx`), stdoutFile, cpus, readyOn: 'healthz' });
}

/**
 * Our 404 and stored page's answers on bare Express and pino-http (floor-same-output.ts): `pages`
 * are the bytes our server answered, `stdoutFile` takes its access lines as ours go to a file.
 */
export async function startSameOutputFloor(pages: { notFound: string; stored: string }, stdoutFile: string, cpus?: string) {
  const files = {
    FLOOR_404_FILE: join(tmpdir(), `bench-404-${process.pid}.html`),
    FLOOR_PAGE_FILE: join(tmpdir(), `bench-page-${process.pid}.html`),
  };
  writeFileSync(files.FLOOR_404_FILE, pages.notFound);
  writeFileSync(files.FLOOR_PAGE_FILE, pages.stored);
  try {
    return await spawnServer({ command: withTsx(`${HERE}/floor-same-output.ts`), env: files, stdoutFile, cpus, readyOn: 'healthz' });
  } finally {
    for (const file of Object.values(files)) rmSync(file, { force: true }); // read once at start
  }
}

/** `node --import tsx file`: the pid is the server itself, not a tsx launcher. */
function withTsx(file: string): string[] {
  return ['node', '--import', 'tsx', file];
}

/** Starts a floor, runs `work` on it, and reads its peak memory before stopping it. */
export async function benchFloor<T>(start: () => Promise<RunningServer>, work: (floor: RunningServer) => Promise<T>) {
  const floor = await start();
  try {
    const results = await work(floor);
    return { results, peakRssMb: memoryMb(floor.pid, 'VmHWM') };
  } finally {
    await floor.stop();
  }
}
