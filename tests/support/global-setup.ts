import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROCESS_GROUPS_DIR_ENV, signalGroup } from '../../tools/harness/spawn.ts';
import { buildOnce } from './build-once.ts';

/**
 * Builds the app when its sources changed since the last run's build (build-once.ts), and gives
 * the run a list of the process groups its workers start (tools/harness/spawn.ts): whatever is
 * still listed at the end is killed, so no server outlives `npm test`, even one whose worker was
 * killed by a signal.
 */
export default async function setup(): Promise<() => void> {
  await buildOnce();
  const dir = mkdtempSync(join(tmpdir(), 'react-ssr-host-groups-'));
  process.env[PROCESS_GROUPS_DIR_ENV] = dir;
  return () => {
    for (const pid of readdirSync(dir)) signalGroup(Number(pid), 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
}
