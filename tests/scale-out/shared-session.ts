// A session set by one replica is read by the other: both sign with the same SESSION_SECRET.
// The guestbook's successful post flashes a thanks into the session, which its page shows once
// (client/pages/guestbook/guestbook.tsx): posted straight to one replica, read on the other.
import { expect } from 'vitest';
import { fetchOnce } from '../../tools/harness/http.ts';

export async function expectSessionShared(writer: string, reader: string): Promise<void> {
  const name = `Replica ${Date.now().toString(36)}`;
  const posted = await fetchOnce(`${writer}/guestbook`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name, message: 'a session set here is read on the other replica' }).toString(),
  });
  expect(posted.status).toBe(303);
  // Plain http straight to the replica (not from the balancer): the plain name (server/writes/session.ts).
  const cookie = (posted.headers['set-cookie'] ?? []).map((line) => line.split(';')[0]!).find((pair) => pair.startsWith('__session='));
  expect(cookie).toBeDefined();
  const page = await fetchOnce(`${reader}/guestbook`, { headers: { cookie: cookie! } });
  expect(page.status).toBe(200);
  expect(page.body).toContain(`Thanks, ${name}`);
  console.log(`session: set by ${writer}, read by ${reader}`);
}
