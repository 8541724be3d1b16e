// The built server and its database file (DATABASE_PATH): entries outlive a restart, an older
// file is migrated at start-up, and a file the server cannot use stops the boot before it
// listens, with exit code 1 and one line that names it. A temporary folder per run, never a
// file in the repository. The server serves the fixture app (APP_BUILD): its board's posts
// (tests/apps/host/app/routes/board.tsx) in its schema (migrations.server.ts beside it).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../apps/host/app/migrations.server.ts';
import { ROOT } from '../../tools/harness/paths.ts';
import { parseLog } from '../../tools/harness/server-log.ts';
import { startServer } from '../support/server.ts';
import { APP_BUILDS } from '../support/test-app.ts';

const folder = mkdtempSync(join(tmpdir(), 'react-ssr-host-boot-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The built server, run to its end: it must stop at boot, so it never listens. */
function boot(databasePath: string) {
  const run = spawnSync(process.execPath, ['dist/server/index.js'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', APP_BUILD: APP_BUILDS.host, DATABASE_PATH: databasePath },
    encoding: 'utf8',
    timeout: 15_000,
  });
  return { status: run.status, lines: parseLog(run.stdout) };
}

async function sign(url: string, message: string): Promise<void> {
  const res = await fetch(`${url}/board`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name: 'Ada', message }),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
}

/** The board's posts, newest first, as its page lists them (`<li>name: message</li>`). */
const messages = async (url: string) =>
  [...(await (await fetch(`${url}/board`)).text()).matchAll(/<li>[^<:]+: ([^<]*)<\/li>/g)].map((match) => match[1]!);

describe('the database file of the built server', () => {
  it('keeps the entries across a restart, the database closed at the stop', async () => {
    const env = { APP_BUILD: APP_BUILDS.host, DATABASE_PATH: join(folder, 'restart/app.sqlite') };
    const first = await startServer(env);
    try {
      await sign(first.url, 'before the restart');
      expect(existsSync(`${env.DATABASE_PATH}-wal`)).toBe(true);
    } finally {
      expect((await first.stop()).code).toBe(0);
    }
    // SQLite removes the write-ahead log when the last connection closes, its pages in the file.
    expect(existsSync(`${env.DATABASE_PATH}-wal`)).toBe(false);
    const second = await startServer(env);
    try {
      expect(await messages(second.url)).toEqual(['before the restart']);
    } finally {
      await second.stop();
    }
  });

  it('migrates a file from a release before Kysely at start-up (its PRAGMA user_version), says so once, and keeps its rows', async () => {
    const path = join(folder, 'older.sqlite');
    const older = new DatabaseSync(path);
    // As the releases before Kysely left it: release 1's step as SQL, its count in the header.
    older.exec(
      'CREATE TABLE board_posts (id INTEGER PRIMARY KEY, name TEXT NOT NULL, message TEXT NOT NULL, created_at INTEGER NOT NULL) STRICT',
    );
    older.exec("INSERT INTO board_posts (name, message, created_at) VALUES ('Ada', 'from release 1', 0); PRAGMA user_version = 1");
    older.close();
    const server = await startServer({ APP_BUILD: APP_BUILDS.host, DATABASE_PATH: path });
    try {
      expect(await messages(server.url)).toEqual(['from release 1']);
      const migrated = server.logs.lines.filter((line) => String(line.msg).startsWith('database migrated'));
      expect(migrated).toEqual([
        expect.objectContaining({
          level: 30,
          databasePath: path,
          from: 1,
          version: migrations.length,
          msg: `database migrated from version 1 to ${migrations.length}`,
        }),
      ]);
    } finally {
      await server.stop();
    }
  });

  it('stops the boot on a path it cannot open, with exit code 1 and one fatal line naming DATABASE_PATH', () => {
    const aFile = join(folder, 'a-file');
    writeFileSync(aFile, 'not a folder');
    const path = join(aFile, 'app.sqlite');
    const { status, lines } = boot(path);
    expect(status).toBe(1);
    const fatal = lines.filter((line) => line.level === 60);
    expect(fatal).toEqual([
      expect.objectContaining({ databasePath: path, msg: expect.stringMatching(`^cannot open DATABASE_PATH=${path}: `) }),
    ]);
    expect(String(fatal[0]!.msg)).not.toContain('\n');
    expect(lines.some((line) => String(line.msg).startsWith('listening'))).toBe(false);
  });

  it('stops the boot on a file a newer release migrated, with exit code 1 and one fatal line', () => {
    const path = join(folder, 'newer.sqlite');
    const newer = new DatabaseSync(path);
    newer.exec('PRAGMA user_version = 9');
    newer.close();
    const { status, lines } = boot(path);
    expect(status).toBe(1);
    expect(lines.filter((line) => line.level === 60)).toEqual([
      expect.objectContaining({ msg: expect.stringContaining(`DATABASE_PATH=${path} is at schema version 9, newer than this release's`) }),
    ]);
    expect(lines.some((line) => String(line.msg).startsWith('listening'))).toBe(false);
  });
});
