import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseServerDigest } from '../../shared/digest-proof.ts';
import type { LogLine } from '../../shared/log-line.ts';
import { CLIENT_ERRORS_PATH } from '../../shared/runtime.ts';
import { CONNECTION_NAME, OUTAGE_MESSAGE, PAGES_SUFFIX, SUBSCRIBER_SUFFIX } from '../../server/fleet/redis-connection.ts';
import { streamedValue } from '../../tools/harness/digests.ts';
import { fetchOnce } from '../../tools/harness/http.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';
import { fleetReplica, type FleetReplica } from '../support/fleet-replica.ts';
import { startRedis, type RunningRedis } from '../support/redis-server.ts';
import { DIAG } from '../support/test-app.ts';
import { POSTS_PER_MINUTE } from '../apps/host/app/board-limits.ts';

// What a client could get around by switching replicas, held by the Redis they share
// (REDIS_URL; server/fleet/): the fixture board's post limit (`hostOf(context).limit`), the host's own limit
// on client error reports, and a report proof counting once. Redis gone mid-run: each replica
// holds them in its own memory, with one outage line and never a 5xx.

const FORM = 'application/x-www-form-urlencoded';
/** The board's and the report endpoint's limits (tests/apps/host/app/routes/board.tsx, server/telemetry/client-errors.ts), both 10. */
const PER_MINUTE = POSTS_PER_MINUTE;
const TIMEOUT_MS = 100;

let redis: RunningRedis;
let replicas: FleetReplica[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  await Promise.all(replicas.map((replica) => replica.close()));
  replicas = [];
});
afterAll(() => redis.kill());

/** Two replicas on `url`, listening and connected. */
async function pair(url = redis.url): Promise<[FleetReplica, FleetReplica]> {
  const made = [fleetReplica(url, TIMEOUT_MS), fleetReplica(url, TIMEOUT_MS)] as const;
  replicas.push(...made);
  for (const replica of made) {
    await replica.listen();
    await replica.connected();
  }
  return [...made];
}

/** Each test's client from its own loopback address, so no test inherits another's window. */
let clients = 0;
const nextClient = () => `127.0.9.${++clients}`;

const sign = (replica: FleetReplica, client: string, message: string) =>
  fetchOnce(`${replica.url}/board`, {
    method: 'POST',
    localAddress: client,
    headers: { 'content-type': FORM },
    body: `name=Fleet&message=${encodeURIComponent(message)}`,
  });

/** A real page whose Suspense boundary failed on `replica`: its digest, proof and page id. */
async function failedPage(replica: FleetReplica) {
  const page = await fetchOnce(`${replica.url}/_diag/stream-error`, { headers: { 'user-agent': BROWSER_UA, ...DIAG } });
  const server = parseServerDigest(streamedValue(page.body))!;
  return { digest: server.digest, proof: server.proof!, pageReqId: String(page.headers['x-request-id']) };
}

/** Posts a browser report of `page` to `replica` and returns the line it logged. */
async function report(replica: FleetReplica, page: object, client = nextClient()): Promise<LogLine> {
  const body = JSON.stringify({ kind: 'recoverable', type: 'Error', message: 'boundary recovered', path: '/_diag/stream-error', ...page });
  const res = await fetchOnce(`${replica.url}${CLIENT_ERRORS_PATH}`, {
    method: 'POST',
    localAddress: client,
    headers: { 'content-type': 'application/json' },
    body,
  });
  expect(res.status).toBe(204);
  return replica.logs.waitFor((line) => line.side === 'client' && line.reqId === res.headers['x-request-id']);
}

describe('two replicas on one Redis', () => {
  it("the board's post limit counts a client's writes on both: the 11th on either is a 429", async () => {
    const [a, b] = await pair();
    const client = nextClient();
    for (let i = 0; i < PER_MINUTE; i++) expect((await sign(i % 2 === 0 ? a : b, client, `write ${i}`)).status).toBe(303);
    for (const replica of [a, b]) {
      const refused = await sign(replica, client, 'one too many');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body).toContain('Too many posts');
    }
    // Another client's window is its own.
    expect((await sign(b, nextClient(), 'another client')).status).toBe(303);
    expect(a.logs.failureCount() + b.logs.failureCount()).toBe(0);
  });

  it("the host's own limit on client error reports counts on both replicas together", async () => {
    const [a, b] = await pair();
    const client = nextClient();
    const post = (replica: FleetReplica) =>
      fetchOnce(`${replica.url}${CLIENT_ERRORS_PATH}`, {
        method: 'POST',
        localAddress: client,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'caught', digest: 'c-1a2b3c4d5e6f', type: 'TypeError', message: 'x is undefined', path: '/' }),
      });
    for (let i = 0; i < PER_MINUTE; i++) expect((await post(i % 2 === 0 ? a : b)).status).toBe(204);
    for (const replica of [a, b]) {
      const refused = await post(replica);
      expect(refused.status).toBe(429);
      expect(refused.headers.ratelimit).toMatch(/r=0/);
    }
  });

  it('a report proof spent on one replica is refused on the other, and of two sent at once only one verifies', async () => {
    const [a, b] = await pair();
    const page = await failedPage(a);
    expect(await report(a, page)).toMatchObject({ verified: true, digest: page.digest });
    expect(await report(b, page)).toMatchObject({ verified: false, proofStatus: 'replayed', claimedDigest: page.digest });

    const raced = await failedPage(b);
    const lines = await Promise.all([report(a, raced), report(b, raced)]);
    expect(lines.filter((line) => line.verified === true)).toHaveLength(1);
    expect(lines.filter((line) => line.proofStatus === 'replayed')).toHaveLength(1);
  });

  it('each replica holds one connection per store and one subscriber; every key is under rsh: and ends', async () => {
    const [a] = await pair();
    // A stored page, a limit and a proof: all three uses of the store, over the one connection.
    await fetchOnce(`${a.url}/cached`);
    expect((await sign(a, nextClient(), 'keys')).status).toBe(303);
    await report(a, await failedPage(a));
    const admin = createClient({ url: redis.url });
    await admin.connect();
    try {
      const names = (await admin.clientList()).map((client) => client.name).filter((name) => name.startsWith(CONNECTION_NAME));
      // The state's and the stored pages' (one test Redis holds both here), and the invalidations' subscriber.
      expect(names.sort()).toEqual([
        CONNECTION_NAME,
        CONNECTION_NAME,
        CONNECTION_NAME + PAGES_SUFFIX,
        CONNECTION_NAME + PAGES_SUFFIX,
        CONNECTION_NAME + SUBSCRIBER_SUFFIX,
        CONNECTION_NAME + SUBSCRIBER_SUFFIX,
      ]);
      const keys = await admin.keys('*');
      expect(keys.filter((key) => !key.startsWith('rsh:'))).toEqual([]);
      for (const use of ['rsh:page:', 'rsh:window:', 'rsh:proof:'])
        expect(
          keys.some((key) => key.startsWith(use)),
          use,
        ).toBe(true);
      for (const key of keys) expect(await admin.pTTL(key), key).toBeGreaterThan(0);
    } finally {
      admin.destroy();
    }
  });
});

describe('Redis killed mid-run', () => {
  it('limits and proofs fall back to each replica: no 5xx, one outage line per replica', async () => {
    const own = await startRedis();
    const [a, b] = await pair(own.url);
    const client = nextClient();
    // Four writes on each, counted in Redis (8) and by each replica (4).
    for (let i = 0; i < 8; i++) expect((await sign(i % 2 === 0 ? a : b, client, `before ${i}`)).status).toBe(303);
    await own.kill();

    // Each replica now holds the limit alone, counting on from its own four.
    for (const replica of [a, b]) {
      const statuses: number[] = [];
      for (let i = 0; i < PER_MINUTE - 4 + 1; i++) statuses.push((await sign(replica, client, `after ${i}`)).status);
      expect(statuses).toEqual([...Array<number>(PER_MINUTE - 4).fill(303), 429]);
    }
    // A proof counts once per replica.
    const page = await failedPage(a);
    expect(await report(a, page)).toMatchObject({ verified: true });
    expect(await report(a, page)).toMatchObject({ verified: false, proofStatus: 'replayed' });
    expect(await report(b, page)).toMatchObject({ verified: true });

    for (const replica of [a, b]) {
      expect(replica.storeLog.lines.filter((line) => line.msg === OUTAGE_MESSAGE && line.store === 'REDIS_URL')).toHaveLength(1);
      expect(replica.outages.state).toBeGreaterThan(0);
      // The failed page's own boundary failure, on the replica that served it, and nothing else.
      expect(replica.logs.failures().map((line) => line.reqId)).toEqual(replica === a ? [page.pageReqId] : []);
    }
  });
});
