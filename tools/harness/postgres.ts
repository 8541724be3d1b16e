// A throw-away PostgreSQL for the tests (and the scale-out test's replicas): Debian's
// `postgresql` package, a cluster in a temporary folder on a free loopback port, trust
// authentication, stopped and removed at the end. PostgreSQL refuses to run as root, so as root
// its commands run as the package's `postgres` user (runuser), as docs/data.md says.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, HOST } from './net.ts';

/** Where Debian's postgresql (15, bookworm) puts its programs. */
export const POSTGRES_BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

export interface TestPostgres {
  /** The server's own database: tests make theirs with `createDatabase`. */
  url: string;
  port: number;
  stop(): void;
}

function asOwner(program: string, args: string[]): string {
  const command = join(POSTGRES_BIN, program);
  const root = process.getuid?.() === 0;
  return execFileSync(root ? 'runuser' : command, root ? ['-u', 'postgres', '--', command, ...args] : args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export async function startPostgres(): Promise<TestPostgres> {
  if (!existsSync(join(POSTGRES_BIN, 'pg_ctl'))) {
    throw new Error(`no PostgreSQL at ${POSTGRES_BIN}: apt-get install -y postgresql (docs/data.md), or set POSTGRES_BIN`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'react-ssr-host-pg-'));
  if (process.getuid?.() === 0) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const port = await freePort();
  asOwner('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
  // fsync off: a test's cluster is thrown away, and syncing is most of a commit's time.
  const options = `-p ${port} -k ${dir} -c listen_addresses=${HOST} -c fsync=off -c max_connections=200`;
  asOwner('pg_ctl', ['-D', join(dir, 'data'), '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  return {
    url: `postgres://postgres@${HOST}:${port}/postgres`,
    port,
    stop() {
      try {
        asOwner('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
