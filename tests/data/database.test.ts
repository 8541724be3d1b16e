// The host's database (server/data/database.ts, migrations.ts) on both engines: opened once,
// the app's migrations run in order, each step whole or not at all, none twice; a database it
// cannot use is one line that stops the boot. Each test opens a database of its own (a SQLite
// file in a temporary folder, or a database in the run's PostgreSQL: tests/support/databases.ts).
// The app's migrations are the fixture app's (tests/apps/host/app/migrations.server.ts: the board's posts).
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sql, type Generated, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrations } from '../apps/host/app/migrations.server.ts';
import { IN_MEMORY, openDatabase, type DatabaseSettings } from '../../server/data/database.ts';
import { executedSteps } from '../../server/data/migrations.ts';
import type { Database, Migration } from '../../shared/database.ts';
import { ENGINES, freshDatabase, type Engine } from '../support/databases.ts';

/** The board's posts, as its page reads and writes them (tests/apps/host/app/routes/board.tsx). */
interface BoardTables {
  board_posts: { id: Generated<number>; name: string; message: string; created_at: number };
}

function boardOf(database: Database) {
  const db: Kysely<BoardTables> = database;
  return {
    add: (name: string, message: string) => db.insertInto('board_posts').values({ name, message, created_at: Date.now() }).execute(),
    messages: async () => (await db.selectFrom('board_posts').select('message').orderBy('id').execute()).map((row) => row.message),
    byName: async (name: string) =>
      (await db.selectFrom('board_posts').select('message').where('name', '=', name).execute()).map((row) => row.message),
  };
}

/** The tables and indexes, by name: what the steps made (primary keys, the record of steps and the host's own tables aside). */
async function schemaOf(db: Database, engine: Engine): Promise<string[]> {
  const tables = (await db.introspection.getTables()).map((table) => table.name);
  const indexes =
    engine === 'postgres'
      ? sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public'`
      : sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index'`;
  const names = [...tables, ...(await indexes.execute(db)).rows.map((row) => row.name)];
  return names.filter((name) => !/^(sqlite_|kysely_|host_)|_pkey$/.test(name)).sort();
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe.each(ENGINES)('the database on %s', (engine) => {
  const where = (settings: DatabaseSettings) =>
    settings.postgres === undefined ? `DATABASE_PATH=${settings.databasePath}` : `DATABASE_URL=postgres://${settings.postgres.where}`;

  it('runs every migration on a new database, in order, and records each', async () => {
    const settings = await freshDatabase(engine);
    const { db, from, version } = await openDatabase(settings, migrations);
    expect({ from, version }).toEqual({ from: 0, version: migrations.length });
    expect((await executedSteps(db)).sort()).toEqual(migrations.map((step) => step.name).sort());
    expect(await schemaOf(db, engine)).toEqual(['board_posts', 'board_posts_by_name']);
    await db.destroy();
  });

  it('keeps what was written when opened again, and runs no migration twice', async () => {
    const settings = await freshDatabase(engine);
    const first = (await openDatabase(settings, migrations)).db;
    await boardOf(first).add('Ada', 'kept');
    await first.destroy();
    const again = await openDatabase(settings, migrations);
    expect({ from: again.from, version: again.version }).toEqual({ from: migrations.length, version: migrations.length });
    expect(await boardOf(again.db).messages()).toEqual(['kept']);
    await again.db.destroy();
  });

  it('migrates a database from an older release: only the steps after it run, and its rows stay', async () => {
    const settings = await freshDatabase(engine);
    // The first release knew one step: the table, without the index by name.
    const older = await openDatabase(settings, migrations.slice(0, 1));
    await boardOf(older.db).add('Ada', 'from release 1');
    expect(await schemaOf(older.db, engine)).toEqual(['board_posts']);
    await older.db.destroy();
    const newer = await openDatabase(settings, migrations);
    expect({ from: newer.from, version: newer.version }).toEqual({ from: 1, version: 2 });
    expect(await schemaOf(newer.db, engine)).toEqual(['board_posts', 'board_posts_by_name']);
    expect(await boardOf(newer.db).byName('Ada')).toEqual(['from release 1']);
    await newer.db.destroy();
  });

  it('stops at a failed step with one line naming it, the step undone and the steps before it kept', async () => {
    const settings = await freshDatabase(engine);
    const notes: Migration = { name: 'notes', up: (db) => db.schema.createTable('notes').addColumn('body', 'text').execute() };
    const tags: Migration = {
      name: 'tags',
      // Its first statement succeeds before the second fails: its transaction takes both back.
      up: async (db) => {
        await db.schema.createTable('tags').addColumn('name', 'text').execute();
        await sql`INSERT INTO nowhere VALUES (1)`.execute(db);
      },
    };
    const first = await openDatabase(settings, [notes]);
    await first.db.destroy();
    await expect(openDatabase(settings, [notes, tags])).rejects.toMatchObject({
      name: 'DatabaseError',
      message: expect.stringMatching(new RegExp(`^${escaped(where(settings))}: migration 2 of 2 \\("tags"\\) failed: [^\\n]*nowhere`)),
    });
    const { db } = await openDatabase(settings, [notes]);
    expect(await executedSteps(db)).toEqual(['notes']);
    expect(await schemaOf(db, engine)).toEqual(['notes']);
    await db.destroy();
  });

  it('runs the steps in the order of the list, whatever their names, each in a transaction of its own', async () => {
    const settings = await freshDatabase(engine);
    // Alphabetically the second step would come first, and fail without the first's table.
    const steps: Migration[] = [
      { name: 'zebras', up: (db) => db.schema.createTable('zebras').addColumn('name', 'text').execute() },
      { name: 'add stripes to zebras', up: (db) => db.schema.alterTable('zebras').addColumn('stripes', 'integer').execute() },
      { name: 'a failing step', up: async (db) => void (await sql`SELECT * FROM nowhere`.execute(db)) },
    ];
    await expect(openDatabase(settings, steps)).rejects.toMatchObject({
      message: expect.stringContaining('migration 3 of 3 ("a failing step")'),
    });
    // The two before it were each committed: a later failure takes back its own step only.
    const { db } = await openDatabase(settings, steps.slice(0, 2));
    // Recorded in the same millisecond, they are listed by name: what counts is that both are.
    expect((await executedSteps(db)).sort()).toEqual(['add stripes to zebras', 'zebras']);
    await db.destroy();
  });

  it('refuses a database a newer release migrated, in one line: this code may not read its schema', async () => {
    const settings = await freshDatabase(engine);
    const newer = await openDatabase(settings, [...migrations, { name: 'a later step', up: async () => {} }]);
    await newer.db.destroy();
    await expect(openDatabase(settings, migrations)).rejects.toMatchObject({
      name: 'DatabaseError',
      message: `${where(settings)} has run a migration this release does not have ("a later step"): deploy that release again, or restore a backup from before it`,
    });
  });

  it('refuses two steps of one name: a name is what the database records', async () => {
    const settings = await freshDatabase(engine);
    const twice: Migration[] = [migrations[0]!, { ...migrations[1]!, name: migrations[0]!.name }];
    await expect(openDatabase(settings, twice)).rejects.toMatchObject({
      name: 'DatabaseError',
      message: expect.stringContaining('two migrations share a name'),
    });
  });
});

describe('the database on sqlite', () => {
  it('carries over a file of a release before Kysely (PRAGMA user_version): its steps are not run again', async () => {
    const settings = await freshDatabase('sqlite');
    const file = new DatabaseSync(settings.databasePath);
    file.exec(
      'CREATE TABLE board_posts (id INTEGER PRIMARY KEY, name TEXT NOT NULL, message TEXT NOT NULL, created_at INTEGER NOT NULL) STRICT',
    );
    file.exec("INSERT INTO board_posts (name, message, created_at) VALUES ('Ada', 'kept', 0); PRAGMA user_version = 1");
    file.close();
    const { db, from } = await openDatabase(settings, migrations);
    expect(from).toBe(1);
    expect((await executedSteps(db)).sort()).toEqual(migrations.map((step) => step.name).sort());
    expect(await boardOf(db).byName('Ada')).toEqual(['kept']);
    await db.destroy();
  });

  it('refuses a file of a release before Kysely at a version this release does not have', async () => {
    const settings = await freshDatabase('sqlite');
    const file = new DatabaseSync(settings.databasePath);
    file.exec('PRAGMA user_version = 7');
    file.close();
    await expect(openDatabase(settings, migrations)).rejects.toMatchObject({
      message: `DATABASE_PATH=${settings.databasePath} is at schema version 7, newer than this release's ${migrations.length} migrations: deploy that release again, or restore a backup from before it`,
    });
  });

  it('refuses a path it cannot open, in one line', async () => {
    const aFile = join(tmpdir(), `react-ssr-host-not-a-folder-${process.pid}`);
    writeFileSync(aFile, 'not a folder');
    const path = join(aFile, 'app.sqlite');
    try {
      await expect(openDatabase({ databasePath: path, postgres: undefined }, migrations)).rejects.toMatchObject({
        name: 'DatabaseError',
        message: expect.stringMatching(new RegExp(`^cannot open DATABASE_PATH=${path}: [^\\n]+$`)),
      });
    } finally {
      rmSync(aFile, { force: true });
    }
  });

  it('in memory is private to each opening: nothing is shared or kept', async () => {
    const memory = { databasePath: IN_MEMORY, postgres: undefined };
    const one = (await openDatabase(memory, migrations)).db;
    const two = (await openDatabase(memory, migrations)).db;
    await boardOf(one).add('Ada', 'only here');
    expect(await boardOf(two).messages()).toEqual([]);
    await Promise.all([one.destroy(), two.destroy()]);
  });
});
