// deploy/compose.yaml as a user runs it (podman-compose from Debian's packages, or docker
// compose): two replicas, their Redis, their PostgreSQL and the balancer come up, serve through
// HAProxy with one digest, one page cache and one guestbook, and `down -v` leaves nothing behind.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageDigest } from '../../tools/harness/digests.ts';
import { fetchOnce } from '../../tools/harness/http.ts';
import { freePorts, sleep } from '../../tools/harness/net.ts';
import { ROOT } from '../../tools/harness/paths.ts';
import { parseLog } from '../../tools/harness/server-log.ts';
import { copyBuildContext, engineEnv, findEngine, type Engine, type Result } from '../container/engine.ts';
import { DIAGNOSTICS_TOKEN } from './cluster.ts';
import { expectSessionShared } from './shared-session.ts';
import { expectGuestbookShared } from './shared-store.ts';

const found = await findEngine();
const PROJECT = `rsh-compose-${process.pid}`;
/** compose.yaml tags the app's image `${IMAGE}:${RELEASE}`: the project's name is the release here. */
const IMAGE_NAME = 'react-ssr-host';
const IMAGE = `${IMAGE_NAME}:${PROJECT}`;
const BALANCER_IMAGE = `react-ssr-host-balancer:${PROJECT}`;
const REDIS_IMAGE = `react-ssr-host-redis:${PROJECT}`;
const POSTGRES_IMAGE = `react-ssr-host-postgres:${PROJECT}`;
/** The only Debian bookworm image on these machines; any bookworm image does (the Containerfiles). */
const BALANCER_BASE_IMAGE = 'docker.io/library/node:26-bookworm-slim';
/** Every service of the file: two replicas, the state's and the pages' Redis, PostgreSQL and the balancer. */
const SERVICES = 6;
const WAIT_MS = 120_000;

/** podman-compose 1.0.3 cannot run `network_mode: host` as is: see the shim's comment. */
const PODMAN_SHIM = join(ROOT, 'tests/scale-out/podman-host-network.sh');

function composeCommand(engine: Engine): [string, string[]] {
  return engine.kind === 'podman' ? ['podman-compose', ['--podman-path', PODMAN_SHIM]] : [engine.command, ['compose']];
}

function compose(engine: Engine, args: string[], env: Record<string, string>): Promise<Result> {
  const [command, prefix] = composeCommand(engine);
  return new Promise((done) => {
    execFile(
      command,
      [...prefix, '-p', PROJECT, '-f', join(ROOT, 'deploy/compose.yaml'), ...args],
      { env: engineEnv({ PODMAN: engine.command, ...env }), timeout: 10 * 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

const hasCompose =
  found.engine !== undefined &&
  (found.engine.kind === 'docker' ||
    (await new Promise<boolean>((resolve) => execFile('podman-compose', ['version'], (error) => resolve(!error)))));

if (found.engine === undefined || !hasCompose) {
  const reason = found.engine === undefined ? found.reason : 'podman-compose is not installed (apt-get install podman-compose)';
  console.log(`compose test skipped: ${reason}`);
  it('runs deploy/compose.yaml', ({ skip }) => skip(reason));
} else {
  const engine = found.engine;
  const projectLabel = `label=${engine.kind === 'podman' ? 'io.podman.compose.project' : 'com.docker.compose.project'}=${PROJECT}`;
  let context = '';
  let env: Record<string, string> = {};

  describe(`deploy/compose.yaml (${composeCommand(engine)[0]})`, () => {
    beforeAll(async () => {
      context = mkdtempSync(join(tmpdir(), 'rsh-compose-'));
      copyBuildContext(context);
      const pull = engine.kind === 'podman' ? ['--pull=never'] : [];
      await engine.must(['build', ...pull, '--network', 'host', '-t', IMAGE, context]);
      const [app1, app2, balancer, stats, redis, redisPages, postgres] = (await freePorts(7)) as [
        number,
        number,
        number,
        number,
        number,
        number,
        number,
      ];
      env = {
        IMAGE: IMAGE_NAME,
        RELEASE: PROJECT,
        BALANCER_IMAGE,
        BALANCER_BASE_IMAGE,
        REDIS_IMAGE,
        REDIS_BASE_IMAGE: BALANCER_BASE_IMAGE,
        REDIS_PORT: String(redis),
        REDIS_PAGES_PORT: String(redisPages),
        POSTGRES_IMAGE,
        POSTGRES_BASE_IMAGE: BALANCER_BASE_IMAGE,
        POSTGRES_PORT: String(postgres),
        POSTGRES_PASSWORD: 'compose0test0password0hex',
        APP1_PORT: String(app1),
        APP2_PORT: String(app2),
        BALANCER_PORT: String(balancer),
        STATS_PORT: String(stats),
        DIGEST_KEY: 'compose-test-shared-digest-key',
        SESSION_SECRET: 'compose-test-shared-session-secret-0123456789',
        PUBLIC_ORIGIN: `http://127.0.0.1:${balancer}`,
        DIAGNOSTICS_TOKEN,
      };
      const up = await compose(engine, ['up', '-d'], env);
      // podman-compose 1.0.3 exits 0 even when a container failed to start: look for every one.
      const running = await engine.must(['ps', '--filter', projectLabel, '--format', '{{.Names}}']);
      expect(running.split('\n').filter(Boolean), `${up.stdout.slice(-3000)}\n${up.stderr.slice(-3000)}`).toHaveLength(SERVICES);
      console.log(
        `compose project ${PROJECT} up: balancer on 127.0.0.1:${balancer}, replicas on :${app1} and :${app2}, Redis on :${redis} (state) and :${redisPages} (pages)`,
      );
    });

    afterAll(async () => {
      const down = await compose(engine, ['down', '-v'], env);
      const left = await engine.run(['ps', '-a', '--filter', projectLabel, '--format', '{{.Names}}']);
      const volumes = await engine.run(['volume', 'ls', '--format', '{{.Name}}']);
      console.log(
        `compose down -v exited ${down.code}; containers left: ${left.stdout.trim() || 'none'}; volumes left: ${
          volumes.stdout
            .split('\n')
            .filter((name) => name.startsWith(PROJECT))
            .join(', ') || 'none'
        }`,
      );
      await engine.run(['rmi', '--force', IMAGE, BALANCER_IMAGE, REDIS_IMAGE, POSTGRES_IMAGE]);
      if (context) rmSync(context, { recursive: true, force: true });
    });

    it('serves through the balancer from both replicas, with one digest for one failure', async () => {
      const url = `http://127.0.0.1:${env.BALANCER_PORT}`;
      const deadline = Date.now() + WAIT_MS;
      const bothUp = async () => {
        const csv = await fetchOnce(`http://127.0.0.1:${env.STATS_PORT}/stats;csv`).then(
          (res) => res.body,
          () => '',
        );
        return csv.split('\n').filter((line) => /^app,app[12],/.test(line) && line.includes(',UP,')).length === 2;
      };
      while (!(await bothUp())) {
        if (Date.now() > deadline)
          throw new Error(`the balancer never saw both replicas UP: ${(await compose(engine, ['logs'], env)).stdout.slice(-3000)}`);
        await sleep(250);
      }
      expect((await fetchOnce(`${url}/`)).status).toBe(200);
      const digests = new Set<string>();
      for (let i = 0; i < 4; i += 1) {
        const reply = await fetchOnce(`${url}/_diag/server-error`, { headers: { 'x-diagnostics-token': DIAGNOSTICS_TOKEN } });
        expect(reply.status).toBe(500);
        digests.add(pageDigest(reply.body) ?? 'none');
      }
      expect([...digests]).toHaveLength(1);
      const names = (await engine.must(['ps', '--filter', projectLabel, '--format', '{{.Names}}']))
        .split('\n')
        .filter((name) => /app[12]/.test(name));
      expect(names).toHaveLength(2);
      for (const name of names) {
        const failures = parseLog(await engine.must(['logs', name])).filter((line) => line.msg === 'request failed');
        expect(failures.map((line) => line.digest)).toEqual(failures.map(() => [...digests][0]));
        expect(failures.length).toBeGreaterThan(0);
      }
      console.log(`compose: both replicas served /_diag/server-error with digest ${[...digests][0]}`);
    });

    it("a session set on one replica is read on the other: the file's SESSION_SECRET is shared", async () => {
      await expectSessionShared(`http://127.0.0.1:${env.APP1_PORT}`, `http://127.0.0.1:${env.APP2_PORT}`);
    });

    it("an entry signed on one replica is in the other's guestbook: the file's PostgreSQL is theirs", async () => {
      await expectGuestbookShared(`http://127.0.0.1:${env.APP1_PORT}`, `http://127.0.0.1:${env.APP2_PORT}`);
    });

    it("a page one replica stored answers the other from the file's Redis", async () => {
      // A path of its own: /about is reused for 10 s (client/pages/about.tsx), and no earlier request stored this one.
      const path = `/about?compose=${PROJECT}`;
      expect((await fetchOnce(`http://127.0.0.1:${env.APP1_PORT}${path}`)).headers['x-cache']).toBe('MISS');
      // Stored once its answer ended: the other replica finds it within moments.
      await expect.poll(async () => (await fetchOnce(`http://127.0.0.1:${env.APP2_PORT}${path}`)).headers['x-cache']).toBe('HIT');
      console.log('compose: /about stored by app1 answered app2 from Redis');
    });
  });
}
