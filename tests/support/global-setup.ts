import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROCESS_GROUPS_DIR_ENV, signalGroup } from '../../tools/harness/spawn.ts';
import { startPostgres } from '../../tools/harness/postgres.ts';
import { buildOnce } from './build-once.ts';
import { TEST_POSTGRES_ENV } from './databases.ts';

/**
 * Builds the app when its sources changed since the last run's build (build-once.ts), and gives
 * the run a list of the process groups its workers start (tools/harness/spawn.ts): whatever is
 * still listed at the end is killed, so no server outlives `npm test`, even one whose worker was
 * killed by a signal; and starts the run's PostgreSQL.
 */
export default async function setup(): Promise<() => void> {
  // One PostgreSQL for the run, started while the app builds; each test makes its own database in it (./databases.ts).
  const [postgres, build] = await Promise.allSettled([startPostgres(), buildOnce()]);
  // A failed build leaves no PostgreSQL behind, nor a failed start a build's result unread.
  if (postgres.status === 'rejected' || build.status === 'rejected') {
    if (postgres.status === 'fulfilled') postgres.value.stop();
    throw postgres.status === 'rejected' ? postgres.reason : (build as PromiseRejectedResult).reason;
  }
  process.env[TEST_POSTGRES_ENV] = postgres.value.url;
  const dir = mkdtempSync(join(tmpdir(), 'react-ssr-host-groups-'));
  process.env[PROCESS_GROUPS_DIR_ENV] = dir;
  return () => {
    try {
      for (const pid of readdirSync(dir)) signalGroup(Number(pid), 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    } finally {
      postgres.value.stop();
    }
  };
}
