// Scale-out as users run it: two replicas of the image (Node 26, read-only root) behind Debian's
// HAProxy with deploy/haproxy.cfg, on loopback, sharing one Redis (Debian's redis-server, as
// deploy/compose.yaml's) and one PostgreSQL (tools/harness/postgres.ts): stored pages,
// revalidations, rate limits and the guestbook hold for both. Then a rolling deploy to a second
// build whose assets have other hashes, under steady load, with nothing dropped.
import { spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyBuildContext, findEngine } from '../container/engine.ts';
import { entryScript } from '../../tools/bench/measure.ts';
import { pageDigest } from '../../tools/harness/digests.ts';
import { fetchOnce } from '../../tools/harness/http.ts';
import { sleep } from '../../tools/harness/net.ts';
import { OUTAGE_MESSAGE } from '../../server/fleet/redis-connection.ts';
import { startRedis, type RunningRedis } from '../support/redis-server.ts';
import { startPostgres, type TestPostgres } from '../../tools/harness/postgres.ts';
import { BALANCER_SOURCE, Cluster, DIAGNOSTICS_TOKEN, REVALIDATE_TOKEN, type Replica } from './cluster.ts';
import { startLoad } from './load.ts';
import { expectSessionShared } from './shared-session.ts';
import { expectGuestbookShared, expectRevalidationShared, expectWriteLimitShared } from './shared-store.ts';

const IMAGE_A = 'react-ssr-host:scale-a';
const IMAGE_B = 'react-ssr-host:scale-b';
const DIAG = { 'x-diagnostics-token': DIAGNOSTICS_TOKEN };
/** The image's node user: the shared assets volume must be writable by it. */
const NODE_UID = 1000;
const REPORTS_PER_MINUTE = 10;
/** Load: 6 clients with keep-alive, 10 ms between requests each; bounded, loopback only. */
const LOAD = { workers: 6, pauseMs: 10 };
const STEADY_MS = 1_500;

const found = await findEngine();
/** Debian's haproxy package (.ci/run installs it). */
const haproxy = spawnSync('haproxy', ['-v']).status === 0;
const skipped = found.engine === undefined ? found.reason : haproxy ? undefined : 'haproxy is not installed (apt-get install haproxy)';

if (found.engine === undefined || skipped !== undefined) {
  console.log(`scale-out test skipped: ${skipped}`);
  it('scales out behind HAProxy', ({ skip }) => skip(skipped));
} else {
  const engine = found.engine;
  const pull = engine.kind === 'podman' ? ['--pull=never'] : [];
  const dirs: string[] = [];
  const tempDir = (prefix: string) => dirs[dirs.push(mkdtempSync(join(tmpdir(), prefix))) - 1]!;
  let cluster: Cluster;
  let shared: string; // the shared assets volume's folder on this machine
  let redis: RunningRedis | undefined;
  let redisPages: RunningRedis | undefined;
  let postgres: TestPostgres | undefined;

  describe(`two replicas behind HAProxy (${engine.kind})`, () => {
    beforeAll(async () => {
      const contextA = tempDir('rsh-scale-a-');
      const files = copyBuildContext(contextA);
      const contextB = tempDir('rsh-scale-b-');
      copyBuildContext(contextB);
      // The next release: the same app with one more statement, so its client chunks get new hashes.
      appendFileSync(
        join(contextB, 'client/router/entry.client.tsx'),
        '\n(globalThis as Record<string, unknown>).__scaleOutRelease = "b";\n',
      );
      for (const [image, context] of [
        [IMAGE_A, contextA],
        [IMAGE_B, contextB],
      ] as const) {
        const started = Date.now();
        await engine.must(['build', ...pull, '--network', 'host', '-t', image, context]);
        console.log(`built ${image} from ${files} files in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
      const filesDir = tempDir('rsh-scale-files-');
      for (const dir of [(shared = tempDir('rsh-scale-assets-')), filesDir]) chownSync(dir, NODE_UID, NODE_UID);
      // As docs/deploy.md documents them: the state never evicting, the pages least recently used out.
      redis = await startRedis(undefined, ['--maxmemory', '64mb', '--maxmemory-policy', 'noeviction']);
      redisPages = await startRedis(undefined, ['--maxmemory', '64mb', '--maxmemory-policy', 'allkeys-lru']);
      postgres = await startPostgres();
      cluster = new Cluster(engine, shared, filesDir, { state: redis.url, pages: redisPages.url }, postgres.url);
      await cluster.start(IMAGE_A);
      console.log(
        `HAProxy on ${cluster.url} → ${cluster.replicas.map((r) => `${r.name} :${r.port}`).join(', ')}; replicas trust ${BALANCER_SOURCE} only`,
      );
    });

    afterAll(async () => {
      await cluster?.stop();
      await redis?.kill();
      await redisPages?.kill();
      postgres?.stop();
      for (const image of [IMAGE_A, IMAGE_B]) await engine.run(['rmi', '--force', image]);
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      const left = await engine.run(['ps', '-a', '--filter', 'name=rsh-scale-', '--format', '{{.Names}}']);
      console.log(`cleaned up: containers left: ${left.stdout.trim() || 'none'}; HAProxy stopped`);
    });

    it('the same failure on both replicas shows the same digest (shared DIGEST_KEY)', async () => {
      const byReplica = new Map<string, Set<string>>();
      for (let i = 0; i < 6; i += 1) {
        const reply = await fetchOnce(`${cluster.url}/_diag/server-error`, { headers: DIAG });
        expect(reply.status).toBe(500);
        const digest = pageDigest(reply.body);
        expect(digest).toBeTruthy();
        const reqId = String(reply.headers['x-request-id']);
        const served = await Promise.all(
          cluster.replicas.map(async (replica) =>
            (await cluster.logs(replica)).some((line) => line.reqId === reqId) ? replica.name : undefined,
          ),
        );
        const replica = served.find(Boolean)!;
        byReplica.set(replica, (byReplica.get(replica) ?? new Set()).add(digest!));
      }
      expect([...byReplica.keys()].sort()).toEqual(cluster.replicas.map((r) => r.name).sort());
      const digests = new Set([...byReplica.values()].flatMap((set) => [...set]));
      expect(digests.size).toBe(1);
      console.log(`digest ${[...digests][0]} from both replicas`);
    });

    it("the balancer's request id is the one returned and logged; a client's forged id is not", async () => {
      const reply = await fetchOnce(`${cluster.url}/`, { headers: { 'x-request-id': 'forged-by-client' } });
      const id = String(reply.headers['x-request-id']);
      expect(id).not.toBe('forged-by-client');
      await expect.poll(() => cluster.haproxyLog.includes(` ${id} `)).toBe(true);
      const access = (await cluster.allLogs()).filter((line) => line.reqId === id && line.msg === 'request completed');
      expect(access).toHaveLength(1);
      console.log(`request id ${id}: in HAProxy's log, the response and one access line`);
    });

    it('client addresses are the real clients, whatever X-Forwarded-For they send', async () => {
      const viaBalancer = await fetchOnce(`${cluster.url}/`, { localAddress: '127.0.0.2', headers: { 'x-forwarded-for': '203.0.113.9' } });
      // Straight to a replica, a forged header from an address that is not the balancer counts for nothing.
      const direct = await fetchOnce(`http://127.0.0.1:${cluster.replicas[0]!.port}/`, {
        localAddress: '127.0.0.3',
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      const logs = await cluster.allLogs();
      const addressOf = (reply: { headers: Record<string, unknown> }) =>
        logs.find((line) => line.reqId === reply.headers['x-request-id'] && line.msg === 'request completed')?.ip;
      expect(addressOf(viaBalancer)).toBe('127.0.0.2');
      expect(addressOf(direct)).toBe('127.0.0.3');
    });

    it("the protocol is the balancer's X-Forwarded-Proto: a client's forged https is replaced", async () => {
      // The app compares a loader's redirect with the request's origin, protocol included.
      const redirect = (to: string) =>
        fetchOnce(`${cluster.url}/_diag/redirect?to=${encodeURIComponent(to)}`, { headers: { ...DIAG, 'x-forwarded-proto': 'https' } });
      const sameOrigin = await redirect(`${cluster.url}/`);
      expect(sameOrigin.status).toBe(302);
      expect(sameOrigin.headers.location).toBe(`${cluster.url}/`);
      expect((await redirect(cluster.url.replace('http:', 'https:') + '/')).status).toBe(500);
    });

    it('rate limits are per real client, not per balancer', async () => {
      const report = JSON.stringify({ kind: 'caught', digest: 'c-1a2b3c4d5e6f', type: 'TypeError', message: 'x is undefined', path: '/' });
      const post = (localAddress: string) =>
        fetchOnce(`${cluster.url}/api/client-errors`, {
          localAddress,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: report,
        });
      // Twice what one client may send, spread over both replicas by the balancer: they count
      // together in Redis, so the limit holds once for the pair, not once per replica.
      const statuses: number[] = [];
      for (let i = 0; i < 2 * REPORTS_PER_MINUTE; i += 1) statuses.push((await post('127.0.0.4')).status);
      expect(statuses).toEqual([...Array<number>(REPORTS_PER_MINUTE).fill(204), ...Array<number>(REPORTS_PER_MINUTE).fill(429)]);
      // Another client behind the same balancer is not held back by the first.
      expect((await post('127.0.0.5')).status).toBe(204);
    });

    it("a revalidation on one replica makes the other's next read a MISS that renders the page anew", async () => {
      const [a, b] = cluster.replicas.map((replica) => `http://127.0.0.1:${replica.port}`);
      await expectRevalidationShared(a!, b!, REVALIDATE_TOKEN);
    });

    it("the guestbook's write limit holds across both replicas: one client's 11th write on either is a 429", async () => {
      await expectWriteLimitShared(cluster.replicas.map((replica) => `http://127.0.0.1:${replica.port}`));
      // Redis answered all along: no replica told an outage.
      expect((await cluster.allLogs()).filter((line) => line.msg === OUTAGE_MESSAGE)).toEqual([]);
    });

    it('an entry written through one replica is read through the other, its attachment too: their data is one PostgreSQL and one files volume', async () => {
      const [a, b] = cluster.replicas.map((replica) => `http://127.0.0.1:${replica.port}`) as [string, string];
      await expectGuestbookShared(a, b);
    });

    it('a session set on one replica is read on the other (shared SESSION_SECRET)', async () => {
      const [a, b] = cluster.replicas.map((replica) => `http://127.0.0.1:${replica.port}`);
      await expectSessionShared(a!, b!);
      await expectSessionShared(b!, a!);
    });

    it('runs with a read-only root file system', async () => {
      const name = cluster.replicas[0]!.name;
      expect((await engine.must(['inspect', '--format', '{{.HostConfig.ReadonlyRootfs}}', name])).trim()).toBe('true');
      expect((await engine.run(['exec', name, 'touch', '/app/written'])).code).not.toBe(0);
      expect((await engine.must(['exec', name, 'node', '--version'])).trim()).toMatch(/^v26\./);
    });

    /** Mid-roll: the new release's entry chunk, which the old image never had, is served by the old replica. */
    async function expectSkewServed(newReplica: Replica, oldReplica: Replica): Promise<void> {
      const page = await fetchOnce(`http://127.0.0.1:${newReplica.port}/`);
      // React Router's entry: the page's first modulepreload (it imports it from an inline module script).
      const entry = entryScript(page.body);
      expect((await engine.run(['exec', oldReplica.name, 'test', '-e', `/app/dist/client${entry}`])).code).not.toBe(0);
      const fromOld = await fetchOnce(`http://127.0.0.1:${oldReplica.port}${entry}`);
      expect(fromOld.status).toBe(200);
      console.log(`mid-roll: ${entry} of the new release, absent from the old image, served by the old replica from the shared volume`);
    }

    it('a rolling deploy to a build with new asset hashes drops nothing under load', async () => {
      const load = startLoad(cluster.url, LOAD);
      await sleep(STEADY_MS);
      for (const slot of [0, 1]) {
        const started = Date.now();
        const { exitCode } = await cluster.replace(slot, IMAGE_B);
        console.log(
          `replaced app${slot + 1} with ${IMAGE_B} in ${((Date.now() - started) / 1000).toFixed(1)} s (old one exited ${exitCode})`,
        );
        expect(exitCode).toBe('0');
        if (slot === 0) await expectSkewServed(cluster.replicas[0]!, cluster.replicas[1]!);
      }
      await sleep(STEADY_MS);
      const report = await load.stop();

      const entries = [...report.entries.keys()];
      const [entryA, entryB] = [entries[0]!, entries.at(-1)!];
      const newAssets = [...(report.assetsByEntry.get(entryB) ?? [])].filter((asset) => !report.assetsByEntry.get(entryA)?.has(asset));
      const retired = [...cluster.retiredLogs.values()].flatMap((text) => text.split('\n'));
      const skew = retired.filter((line) =>
        newAssets.some((asset) => line.includes(`"path":"${asset}"`) && line.includes('"statusCode":200')),
      ).length;
      console.log(
        `roll under load: ${report.requests} requests ${JSON.stringify(report.byKind)}; pages per entry ${JSON.stringify(Object.fromEntries(report.entries))}; ` +
          `new assets ${newAssets.length}, served by old replicas ${skew} times; connection errors ${report.connectionErrors.length}, ` +
          `unexpected statuses ${report.unexpected.length}, truncated ${report.truncated.length}, asset misses ${report.assetMisses.length}`,
      );
      expect(report.connectionErrors).toEqual([]);
      expect(report.unexpected).toEqual([]);
      expect(report.truncated).toEqual([]);
      expect(report.assetMisses).toEqual([]);
      // Both releases served pages during the roll, and the new one's assets are new files.
      expect(entries.length).toBe(2);
      expect(newAssets.length).toBeGreaterThan(0);
      expect(readdirSync(shared)).toEqual(expect.arrayContaining(newAssets.map((asset) => asset.replace('/assets/', ''))));
    });
  });
}
