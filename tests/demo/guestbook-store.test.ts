// The guestbook's store (client/pages/guestbook/store.server.ts) on both engines: what the
// page, its action, /api/guestbook and the entry and my-entries pages read. A new database per
// test (tests/support/databases.ts), closed after it.
import { afterEach, describe, expect, it } from 'vitest';
import { migrations } from '../../client/migrations.server.ts';
import { guestbookOf, MAX_ENTRIES } from '../../client/pages/guestbook/store.server.ts';
import { openDatabase } from '../../server/data/database.ts';
import type { Database } from '../../shared/database.ts';
import { ENGINES, freshDatabase } from '../support/databases.ts';

describe.each(ENGINES)('the guestbook store on %s', (engine) => {
  const opened: Database[] = [];
  afterEach(async () => void (await Promise.all(opened.splice(0).map((db) => db.destroy()))));
  const store = async () => {
    const { db } = await openDatabase(await freshDatabase(engine), migrations);
    opened.push(db);
    return guestbookOf({ db });
  };

  it('lists newest first, entries of the same millisecond in the order they were written', async () => {
    const guestbook = await store();
    for (const message of ['one', 'two', 'three']) await guestbook.add({ name: 'Ada', message, owner: 'o1' });
    expect((await guestbook.list()).map((entry) => entry.message)).toEqual(['three', 'two', 'one']);
  });

  it('gives one entry by its id, as it was written, and undefined for an unknown id', async () => {
    const guestbook = await store();
    const { entry: added } = await guestbook.add({ name: 'Ada', message: 'hello', owner: 'o1' });
    expect(await guestbook.get(added.id)).toEqual(added);
    expect(added.attachment).toBeNull();
    expect((await guestbook.get(added.id))!.createdAt).toBeInstanceOf(Date);
    expect(await guestbook.get('no-such-id')).toBeUndefined();
  });

  it("lists one writer's entries, newest first, and nobody else's", async () => {
    const guestbook = await store();
    await guestbook.add({ name: 'Ada', message: 'a1', owner: 'ada' });
    await guestbook.add({ name: 'Bob', message: 'b1', owner: 'bob' });
    await guestbook.add({ name: 'Ada', message: 'a2', owner: 'ada' });
    expect((await guestbook.listByOwner('ada')).map((entry) => entry.message)).toEqual(['a2', 'a1']);
    expect(await guestbook.listByOwner('nobody')).toEqual([]);
  });

  it('lets only the writer remove an entry', async () => {
    const guestbook = await store();
    const { id } = (await guestbook.add({ name: 'Ada', message: 'mine', owner: 'ada' })).entry;
    expect(await guestbook.remove(id, 'bob')).toBe('not-yours');
    expect(await guestbook.remove(id, undefined)).toBe('not-yours');
    expect(await guestbook.remove(id, 'ada')).toBe('removed');
    expect(await guestbook.remove(id, 'ada')).toBe('missing');
    expect(await guestbook.get(id)).toBeUndefined();
  });

  it(`keeps the newest ${MAX_ENTRIES} entries: a flood of posts cannot fill the disk, and the dropped ones' attachments are named`, async () => {
    const guestbook = await store();
    const dropped: string[] = [];
    for (let n = 0; n < MAX_ENTRIES + 5; n += 1) {
      const added = await guestbook.add({ name: 'Flood', message: `m${n}`, owner: 'f', attachment: n % 2 === 0 ? `f${n}.txt` : null });
      dropped.push(...added.droppedAttachments);
    }
    const kept = await guestbook.list();
    // m0 to m4 went; of them m0, m2 and m4 had a file, to be removed by the caller.
    const ids = (await guestbook.list()).map((entry) => entry.id);
    expect(dropped).toHaveLength(3);
    expect(dropped.some((id) => ids.includes(id))).toBe(false);
    expect(kept).toHaveLength(MAX_ENTRIES);
    expect(kept[0]!.message).toBe(`m${MAX_ENTRIES + 4}`);
    expect(kept.at(-1)!.message).toBe('m5');
    expect(await guestbook.listByOwner('f')).toHaveLength(MAX_ENTRIES);
  });
});
