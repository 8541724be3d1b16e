// The guestbook's store over SQLite (client/pages/guestbook/store.server.ts): what the page,
// its action, /api/guestbook and the entry and my-entries pages read. A fresh in-memory
// database per test.
import { describe, expect, it } from 'vitest';
import { migrations } from '../../client/migrations.server.ts';
import { guestbookOf, MAX_ENTRIES } from '../../client/pages/guestbook/store.server.ts';
import { IN_MEMORY, openDatabase } from '../../server/writes/database.ts';

const store = () => guestbookOf({ db: openDatabase(IN_MEMORY, migrations).db });

describe('the guestbook store', () => {
  it('lists newest first, entries of the same millisecond in the order they were written', async () => {
    const guestbook = store();
    for (const message of ['one', 'two', 'three']) await guestbook.add({ name: 'Ada', message, owner: 'o1' });
    expect((await guestbook.list()).map((entry) => entry.message)).toEqual(['three', 'two', 'one']);
  });

  it('gives one entry by its id, as it was written, and undefined for an unknown id', async () => {
    const guestbook = store();
    const added = await guestbook.add({ name: 'Ada', message: 'hello', owner: 'o1' });
    expect(await guestbook.get(added.id)).toEqual(added);
    expect((await guestbook.get(added.id))!.createdAt).toBeInstanceOf(Date);
    expect(await guestbook.get('no-such-id')).toBeUndefined();
  });

  it("lists one writer's entries, newest first, and nobody else's", async () => {
    const guestbook = store();
    await guestbook.add({ name: 'Ada', message: 'a1', owner: 'ada' });
    await guestbook.add({ name: 'Bob', message: 'b1', owner: 'bob' });
    await guestbook.add({ name: 'Ada', message: 'a2', owner: 'ada' });
    expect((await guestbook.listByOwner('ada')).map((entry) => entry.message)).toEqual(['a2', 'a1']);
    expect(await guestbook.listByOwner('nobody')).toEqual([]);
  });

  it('lets only the writer remove an entry', async () => {
    const guestbook = store();
    const { id } = await guestbook.add({ name: 'Ada', message: 'mine', owner: 'ada' });
    expect(await guestbook.remove(id, 'bob')).toBe('not-yours');
    expect(await guestbook.remove(id, undefined)).toBe('not-yours');
    expect(await guestbook.remove(id, 'ada')).toBe('removed');
    expect(await guestbook.remove(id, 'ada')).toBe('missing');
    expect(await guestbook.get(id)).toBeUndefined();
  });

  it(`keeps the newest ${MAX_ENTRIES} entries: a flood of posts cannot fill the disk`, async () => {
    const guestbook = store();
    for (let n = 0; n < MAX_ENTRIES + 5; n += 1) await guestbook.add({ name: 'Flood', message: `m${n}`, owner: 'f' });
    const kept = await guestbook.list();
    expect(kept).toHaveLength(MAX_ENTRIES);
    expect(kept[0]!.message).toBe(`m${MAX_ENTRIES + 4}`);
    expect(kept.at(-1)!.message).toBe('m5');
    expect(await guestbook.listByOwner('f')).toHaveLength(MAX_ENTRIES);
  });
});
