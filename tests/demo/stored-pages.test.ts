import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/test-app.ts';

// The demo's stored pages (client/pages/about.tsx, client/pages/guestbook/entry.tsx): the host's
// rules for stored pages are tested over the fixture app (tests/pages/stored-pages.test.ts).

const FORM = 'application/x-www-form-urlencoded';

describe("the demo's stored pages", () => {
  it('/about is stored, the guestbook never, and a guestbook write revalidates the entry pages it stored', async () => {
    // A fixed origin: each supertest request comes to a server on a new port, and the origin is part of an entry's key.
    const { app } = createTestApp({ PUBLIC_ORIGIN: 'http://shop.example' }, {}, { app: 'demo' });
    await request(app).get('/about').expect(200);
    expect((await request(app).get('/about')).headers['x-cache']).toBe('HIT');
    for (const path of ['/guestbook', '/guestbook']) expect((await request(app).get(path).expect(200)).headers['x-cache']).toBeUndefined();
    await request(app).post('/guestbook').type(FORM).send('name=Grace&message=Hello there').expect(303);
    const [entry] = ((await request(app).get('/api/guestbook').expect(200)).body as { entries: { id: string }[] }).entries;
    const page = `/guestbook/entries/${entry!.id}`;
    await request(app).get(page).expect(200);
    expect((await request(app).get(page)).headers['x-cache']).toBe('HIT');
    // Deleting an entry that does not exist changed nothing: it drops nothing.
    await request(app).post('/guestbook').type(FORM).send('intent=delete&id=no-such-entry').expect(200);
    expect((await request(app).get(page)).headers['x-cache']).toBe('HIT');
    await request(app).post('/guestbook').type(FORM).send('name=Ada&message=Hello too').expect(303);
    expect((await request(app).get(page)).headers['x-cache']).toBe('MISS');
  });
});
