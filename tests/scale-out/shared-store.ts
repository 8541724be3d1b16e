// What two replicas on one Redis share beyond sessions (docs/caching.md): a stored page and its
// revalidation, and a client's rate-limit window. Straight to each replica, so which one answers
// is the test's choice, not the balancer's.
import { expect } from 'vitest';
import { fetchOnce } from '../../tools/harness/http.ts';
import { sleep } from '../../tools/harness/net.ts';

/** The guestbook's limit (client/pages/guestbook/guestbook.tsx). */
const WRITES_PER_MINUTE = 10;
/** A stored page is written once its answer ended: the other replica finds it within moments. */
const STORED_WITHIN_MS = 2_000;

/** When the page at /about was rendered (client/pages/about.tsx): a stored copy keeps its time. */
const servedAt = (body: string) => /Served at (\d{4}-[\d-]+T[\d:.]+Z)/.exec(body)?.[1];

/**
 * /about rendered on `a` is stored in Redis and answers `b` (HIT); POST /_revalidate on `a`
 * drops it for both, and `b`'s next read is a MISS that renders it anew (a later `servedAt`).
 */
export async function expectRevalidationShared(a: string, b: string, token: string): Promise<void> {
  expect((await fetchOnce(`${a}/about`)).status).toBe(200);
  let stored = await fetchOnce(`${b}/about`);
  for (const started = Date.now(); stored.headers['x-cache'] !== 'HIT' && Date.now() - started < STORED_WITHIN_MS;) {
    await sleep(100);
    stored = await fetchOnce(`${b}/about`);
  }
  expect(stored.headers['x-cache']).toBe('HIT');
  const revalidated = await fetchOnce(`${a}/_revalidate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ path: '/about' }),
  });
  expect(revalidated.status).toBe(200);
  const [dropped] = (JSON.parse(revalidated.body) as { revalidated: { path: string; dropped: number }[] }).revalidated;
  expect(dropped!.path).toBe('/about');
  expect(dropped!.dropped).toBeGreaterThanOrEqual(1);
  const next = await fetchOnce(`${b}/about`);
  expect(next.headers['x-cache']).toBe('MISS');
  expect(servedAt(next.body)).toBeDefined();
  expect(servedAt(next.body)).not.toBe(servedAt(stored.body));
  console.log(`revalidated /about on ${a}: ${b}'s next read a MISS rendered at ${servedAt(next.body)} (stored: ${servedAt(stored.body)})`);
}

/** One client's guestbook writes, alternating between the replicas: the 11th on either is a 429. */
export async function expectWriteLimitShared(replicas: string[]): Promise<void> {
  const sign = (replica: string, i: number) =>
    fetchOnce(`${replica}/guestbook`, {
      localAddress: '127.0.0.6',
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `name=Fleet&message=write+${i}`,
    });
  const statuses: number[] = [];
  for (let i = 0; i < WRITES_PER_MINUTE; i += 1) statuses.push((await sign(replicas[i % replicas.length]!, i)).status);
  expect(statuses).toEqual(Array<number>(WRITES_PER_MINUTE).fill(303));
  for (const replica of replicas) {
    const refused = await sign(replica, WRITES_PER_MINUTE);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  }
  console.log(`guestbook: ${WRITES_PER_MINUTE} writes from one client over ${replicas.length} replicas, then 429 on each`);
}

/**
 * An entry signed through `a` is in `b`'s guestbook at once, and one signed through `b` in `a`'s:
 * the replicas' data is one PostgreSQL (each has its own SQLite, so nothing else could carry it).
 */
export async function expectGuestbookShared(a: string, b: string): Promise<void> {
  await expectEntryShared(a, b);
  await expectEntryShared(b, a);
}

async function expectEntryShared(a: string, b: string): Promise<void> {
  const message = `shared through PostgreSQL ${Date.now()}`;
  // With an attachment: kept in FILES_DIR, the volume both replicas mount (docs/forms.md).
  const boundary = 'fleet-boundary';
  const part = (headers: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; ${headers}\r\n\r\n${value}\r\n`;
  const attachment = `kept through ${a}`;
  const signed = await fetchOnce(`${a}/guestbook`, {
    localAddress: '127.0.0.7',
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body:
      part('name="name"', 'Fleet') +
      part('name="message"', message) +
      part('name="attachment"; filename="fleet.txt"\r\nContent-Type: text/plain', attachment) +
      `--${boundary}--\r\n`,
  });
  expect(signed.status).toBe(303);
  const listed = JSON.parse((await fetchOnce(`${b}/api/guestbook`)).body) as { entries: { id: string; message: string }[] };
  const entry = listed.entries.find((listedEntry) => listedEntry.message === message);
  expect(entry).toBeDefined();
  const download = await fetchOnce(`${b}/guestbook/entries/${entry!.id}/attachment`);
  expect([download.status, download.body]).toEqual([200, attachment]);
  console.log(`guestbook: an entry signed on ${a} is listed by ${b}, and its attachment downloads there`);
}
