import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/test-app.ts';

// The demo's guestbook takes an attachment (client/pages/guestbook/guestbook.tsx): read with the
// host's upload helper, kept in its file storage under the entry's id, sent back as a download
// (client/pages/guestbook/attachment.ts), removed with its entry. A file over 1 MB is a field error with what was
// typed kept. The host's own upload tests are over tests/apps/host (tests/writes/).

const MB = 1_048_576;
const demo = () => createTestApp({}, {}, { app: 'demo' });

type Listed = { id: string; name: string; attachment: string | null };

async function entryNamed(app: ReturnType<typeof demo>['app'], name: string): Promise<Listed | undefined> {
  const { entries } = (await request(app).get('/api/guestbook').expect(200)).body as { entries: Listed[] };
  return entries.find((entry) => entry.name === name);
}

const cookieOf = (res: request.Response) =>
  ((res.headers['set-cookie'] as unknown as string[] | undefined) ?? []).map((cookie) => cookie.split(';')[0]!).join('; ');

describe("the guestbook's attachments", () => {
  it('an entry signed with a file links to it, and the link downloads the same bytes, never shown inline', async () => {
    const { app, logs } = demo();
    const name = `Ada ${Math.random()}`;
    const content = 'a note «with» UTF-8\n';
    await request(app)
      .post('/guestbook')
      .field('name', name)
      .field('message', 'see the file')
      .attach('attachment', Buffer.from(content), { filename: 'notes – 1.txt', contentType: 'text/html' })
      .expect(303);
    const entry = (await entryNamed(app, name))!;
    expect(entry.attachment).toBe('notes – 1.txt');
    const page = await request(app).get('/guestbook').expect(200);
    expect(page.text).toContain(`href="/guestbook/entries/${entry.id}/attachment"`);

    const download = await request(app).get(`/guestbook/entries/${entry.id}/attachment`).buffer(true).expect(200);
    expect(download.body.toString()).toBe(content);
    // Sent as bytes to save whatever type it claimed: an uploaded HTML file must not run as the site's page.
    expect(download.headers['content-type']).toBe('application/octet-stream');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="notes _ 1.txt"; filename*=UTF-8''notes%20%E2%80%93%201.txt`,
    );
    expect(download.headers['content-security-policy']).toContain('sandbox');
    expect(logs.failureCount()).toBe(0);
  });

  it('a file over 1 MB is a 422 beside the file input, what was typed kept, nothing added', async () => {
    const { app, logs } = demo();
    const name = `Bob ${Math.random()}`;
    const res = await request(app)
      .post('/guestbook')
      .field('name', name)
      .field('message', 'typed before the file')
      .attach('attachment', Buffer.alloc(2 * MB, 'b'), 'big.bin')
      .expect(422);
    expect(res.text).toContain('big.bin is 2.0 MB: an attachment may be at most 1.0 MB.');
    expect(res.text).toContain('typed before the file');
    expect(res.text).toContain(`value="${name}"`);
    expect(await entryNamed(app, name)).toBeUndefined();
    expect(logs.failureCount()).toBe(0);
  });

  it('deleting an entry removes its file; an entry without one, or gone, has no download (404)', async () => {
    const { app } = demo();
    const name = `Cy ${Math.random()}`;
    const posted = await request(app)
      .post('/guestbook')
      .field('name', name)
      .field('message', 'to be deleted')
      .attach('attachment', Buffer.from('bye'), 'bye.txt')
      .expect(303);
    const entry = (await entryNamed(app, name))!;
    const link = `/guestbook/entries/${entry.id}/attachment`;
    await request(app).get(link).expect(200);
    await request(app)
      .post('/guestbook.data')
      .set('Cookie', cookieOf(posted))
      .type('form')
      .send(`intent=delete&id=${entry.id}`)
      .expect(200);
    await request(app).get(link).expect(404);

    await request(app).post('/guestbook').type('form').send(`name=${name}-plain&message=no file`).expect(303);
    const plain = (await entryNamed(app, `${name}-plain`))!;
    expect(plain.attachment).toBeNull();
    await request(app).get(`/guestbook/entries/${plain.id}/attachment`).expect(404);
  });
});
