// The host's database (server/writes/database.ts, migrations.ts): opened once, its folder made
// when missing, the app's migrations run in order from the file's PRAGMA user_version, each
// step whole or not at all; a file it cannot use is one line that stops the boot. Each test
// opens a file of its own in a temporary folder, never one in the repository. The app's
// migrations are the fixture app's (tests/apps/host/app/migrations.server.ts: the board's posts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../apps/host/app/migrations.server.ts';
import { IN_MEMORY, openDatabase } from '../../server/writes/database.ts';
import { schemaVersion } from '../../server/writes/migrations.ts';
import type { Migration } from '../../shared/database.ts';

const folder = mkdtempSync(join(tmpdir(), 'react-ssr-host-db-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
const fresh = () => join(folder, `test-${(files += 1)}.sqlite`);

/** The board's posts, as its page reads and writes them (tests/apps/host/app/routes/board.tsx). */
function boardOf(db: DatabaseSync) {
  return {
    add: (name: string, message: string) =>
      db.prepare('INSERT INTO board_posts (name, message, created_at) VALUES (?, ?, ?)').run(name, message, Date.now()),
    messages: () =>
      db
        .prepare('SELECT message FROM board_posts ORDER BY id')
        .all()
        .map((row) => row.message),
    byName: (name: string) =>
      db
        .prepare('SELECT message FROM board_posts INDEXED BY board_posts_by_name WHERE name = ?')
        .all(name)
        .map((row) => row.message),
  };
}

const tables = (db: DatabaseSync) =>
  db
    .prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all()
    .map((row) => row.name);

describe('the database', () => {
  it('creates a missing file and its folders, and runs every migration on it', () => {
    const path = join(folder, 'nested/deeper/app.sqlite');
    const { db, from, version } = openDatabase(path, migrations);
    expect({ from, version }).toEqual({ from: 0, version: migrations.length });
    expect(schemaVersion(db)).toBe(migrations.length);
    expect(tables(db)).toContain('board_posts');
    db.close();
  });

  it('keeps what was written when the file is opened again, and runs no migration twice', () => {
    const path = fresh();
    const first = openDatabase(path, migrations).db;
    boardOf(first).add('Ada', 'kept');
    first.close();
    const again = openDatabase(path, migrations);
    expect({ from: again.from, version: again.version }).toEqual({ from: migrations.length, version: migrations.length });
    expect(boardOf(again.db).messages()).toEqual(['kept']);
    again.db.close();
  });

  it('migrates a file from an older release: only the steps after its user_version run, and its rows stay', () => {
    const path = fresh();
    // The first release knew one step: the table, without the index by name.
    const older = openDatabase(path, migrations.slice(0, 1));
    expect(older.version).toBe(1);
    boardOf(older.db).add('Ada', 'from release 1');
    expect(tables(older.db)).not.toContain('board_posts_by_name');
    older.db.close();

    const newer = openDatabase(path, migrations);
    expect({ from: newer.from, version: newer.version }).toEqual({ from: 1, version: 2 });
    expect(tables(newer.db)).toContain('board_posts_by_name');
    expect(boardOf(newer.db).byName('Ada')).toEqual(['from release 1']);
    newer.db.close();
  });

  it('stops at a failed step with one line naming it, leaving the file at the version before it and the step undone', () => {
    const path = fresh();
    const steps: Migration[] = [
      { name: 'notes', up: 'CREATE TABLE notes (body TEXT) STRICT' },
      // Its first statement succeeds before the second fails: the transaction takes both back.
      { name: 'tags', up: 'CREATE TABLE tags (name TEXT); INSERT INTO nowhere VALUES (1);' },
    ];
    expect(() => openDatabase(path, steps)).toThrow(
      expect.objectContaining({
        name: 'DatabaseError',
        message: `DATABASE_PATH=${path}: migration 2 of 2 ("tags") failed: no such table: nowhere`,
      }),
    );
    const db = new DatabaseSync(path);
    expect(schemaVersion(db)).toBe(1);
    expect(tables(db)).toEqual(['notes']);
    db.close();
  });

  it('runs a step given as a function, in its transaction like SQL', () => {
    const steps: Migration[] = [
      {
        name: 'seeded',
        up: (db) => {
          db.exec('CREATE TABLE seeds (n INTEGER) STRICT');
          const insert = db.prepare('INSERT INTO seeds VALUES (?)');
          for (const n of [1, 2, 3]) insert.run(n);
        },
      },
    ];
    const { db } = openDatabase(IN_MEMORY, steps);
    expect(db.prepare('SELECT count(*) AS n FROM seeds').get()?.n).toBe(3);
    db.close();
  });

  it('refuses a file migrated by a newer release, in one line: this code may not read its schema', () => {
    const path = fresh();
    const newer = new DatabaseSync(path);
    newer.exec('PRAGMA user_version = 7');
    newer.close();
    expect(() => openDatabase(path, migrations)).toThrow(
      expect.objectContaining({
        name: 'DatabaseError',
        message: `DATABASE_PATH=${path} is at schema version 7, newer than this release's ${migrations.length} migrations: deploy that release again, or restore a backup from before it`,
      }),
    );
  });

  it('refuses a path it cannot open, in one line', () => {
    const aFile = fresh();
    writeFileSync(aFile, 'not a folder');
    const path = join(aFile, 'app.sqlite');
    expect(() => openDatabase(path, migrations)).toThrow(
      expect.objectContaining({
        name: 'DatabaseError',
        message: expect.stringMatching(new RegExp(`^cannot open DATABASE_PATH=${path}: [^\\n]+$`)),
      }),
    );
  });

  it('in memory is private to each opening: nothing is shared or kept', () => {
    const one = openDatabase(IN_MEMORY, migrations).db;
    const two = openDatabase(IN_MEMORY, migrations).db;
    boardOf(one).add('Ada', 'only here');
    expect(boardOf(two).messages()).toEqual([]);
    one.close();
    two.close();
  });
});
