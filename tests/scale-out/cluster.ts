// Two replicas of the image behind Debian's HAProxy, on loopback only, with deploy/haproxy.cfg
// as a user would run it, sharing the state's Redis (REDIS_URL), the stored pages' (CACHE_REDIS_URL)
// and a PostgreSQL for their data (DATABASE_URL) as deploy/compose.yaml's do. Everything
// it starts it names, and stop() removes it.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fetchOnce } from '../../tools/harness/http.ts';
import { freePorts, sleep } from '../../tools/harness/net.ts';
import { ROOT } from '../../tools/harness/paths.ts';
import { parseLog } from '../../tools/harness/server-log.ts';
import type { Engine } from '../container/engine.ts';

/** HAProxy connects to the replicas from this address; their TRUST_PROXY names it alone. */
export const BALANCER_SOURCE = '127.0.0.10';
export const DIAGNOSTICS_TOKEN = 'scale-out-diagnostics-token';
/** POST /_revalidate's token on both replicas (server/pages/revalidate-endpoint.ts). */
export const REVALIDATE_TOKEN = 'scale-out-revalidate-token-0123456789';
const DIGEST_KEY = 'scale-out-shared-digest-key';
/** 32+ bytes, the same on both replicas: a session set by one is read by the other. */
const SESSION_SECRET = 'scale-out-shared-session-secret-0123456789';
/** HAProxy checks every 500 ms and needs 2 failures: 3 s of readiness 503 covers it twice over. */
export const SHUTDOWN_DELAY_MS = 3_000;
const SHUTDOWN_GRACE_MS = 5_000;
/** `stop -t`: above delay + grace + Sentry's 2 s flush, so the engine never kills a drain. */
const STOP_TIMEOUT_S = 15;
const WAIT_MS = 60_000;

export interface Replica {
  readonly name: string;
  readonly port: number;
  readonly image: string;
}

export class Cluster {
  readonly replicas: Replica[] = [];
  /** Containers that ran and were removed: their logs, kept for the checks. */
  readonly retiredLogs = new Map<string, string>();
  haproxyLog = '';
  url = '';
  private statsUrl = '';
  private haproxy: ChildProcess | undefined;
  private readonly suffix = `${process.pid}-${Date.now().toString(36)}`;

  /**
   * `redis`: the state's and the stored pages' Redis both replicas share; `databaseUrl`: the
   * PostgreSQL they share (all on the host's loopback, as the replicas are).
   */
  constructor(
    private readonly engine: Engine,
    private readonly sharedAssetsDir: string,
    /** FILES_DIR's volume, as deploy/kubernetes/files-volume.yaml gives every pod: the guestbook's attachments. */
    private readonly sharedFilesDir: string,
    private readonly redis: { state: string; pages: string },
    private readonly databaseUrl: string,
  ) {}

  async start(image: string): Promise<void> {
    const [lb, stats, app1, app2] = (await freePorts(4)) as [number, number, number, number];
    this.url = `http://127.0.0.1:${lb}`;
    this.statsUrl = `http://127.0.0.1:${stats}/stats;csv`;
    for (const [slot, port] of [app1, app2].entries()) this.replicas[slot] = await this.run(slot, port, image);
    const env = {
      ...process.env,
      HAPROXY_BIND: `127.0.0.1:${lb}`,
      HAPROXY_STATS_BIND: `127.0.0.1:${stats}`,
      BALANCER_SOURCE,
      APP1: `127.0.0.1:${app1}`,
      APP2: `127.0.0.1:${app2}`,
    };
    this.haproxy = spawn('haproxy', ['-db', '-f', join(ROOT, 'deploy/haproxy.cfg')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.haproxy.stdout!.setEncoding('utf8').on('data', (text: string) => (this.haproxyLog += text));
    this.haproxy.stderr!.setEncoding('utf8').on('data', (text: string) => (this.haproxyLog += text));
    await this.waitForState(0, 'UP');
    await this.waitForState(1, 'UP');
  }

  /** Starts one replica from `image` on `port` and waits until it answers /readyz itself. */
  private async run(slot: number, port: number, image: string): Promise<Replica> {
    const name = `rsh-scale-${this.suffix}-app${slot + 1}-${image.split(':').pop()}`;
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DIGEST_KEY,
      SESSION_SECRET,
      // No PUBLIC_ORIGIN, unlike deploy/compose.yaml: the origin (and so the protocol test's
      // redirect check) then comes from the balancer's X-Forwarded-Proto, which is under test.
      DIAGNOSTICS_TOKEN,
      REVALIDATE_TOKEN,
      REDIS_URL: this.redis.state,
      CACHE_REDIS_URL: this.redis.pages,
      TRUST_PROXY: BALANCER_SOURCE,
      SHARED_ASSETS_DIR: '/srv/assets',
      SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
      SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS),
      RELEASE: image,
      // The guestbook in the PostgreSQL both share; each replica's own SQLite in its memory, as
      // the root is read-only (below): what they share can only come through PostgreSQL.
      DATABASE_URL: this.databaseUrl,
      DATABASE_PATH: ':memory:',
      // Kept files on the shared volume; uploads in flight in the tmpfs (in memory here, where a
      // deployment gives them a disk: deploy/kubernetes/deployment.yaml).
      FILES_DIR: '/srv/files',
      UPLOAD_DIR: '/tmp/uploads',
    };
    const envArgs = Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
    // --read-only: the root file system as Kubernetes' readOnlyRootFilesystem makes it; the
    // server writes only to the shared volumes and /tmp (its database is in memory, above).
    await this.engine.must([
      'run',
      '-d',
      '--name',
      name,
      '--network',
      'host',
      '--read-only',
      '--tmpfs',
      '/tmp',
      '-v',
      `${this.sharedAssetsDir}:/srv/assets`,
      '-v',
      `${this.sharedFilesDir}:/srv/files`,
      ...envArgs,
      image,
    ]);
    const deadline = Date.now() + WAIT_MS;
    while (Date.now() < deadline) {
      const ready = await fetchOnce(`http://127.0.0.1:${port}/readyz`).then(
        (res) => res.status === 200,
        () => false,
      );
      if (ready) return { name, port, image };
      await sleep(200);
    }
    throw new Error(`replica ${name} never became ready:\n${(await this.engine.run(['logs', name])).stdout}`);
  }

  /** HAProxy's view of a replica (UP, DOWN, ...) from its stats CSV. */
  async state(slot: number): Promise<string> {
    const stats = await fetchOnce(this.statsUrl).catch(() => undefined);
    if (stats === undefined) return 'unreachable';
    const csv = stats.body.split('\n');
    const columns = csv[0]!.replace(/^# /, '').split(',');
    const row = csv.map((line) => line.split(',')).find((cells) => cells[0] === 'app' && cells[1] === `app${slot + 1}`);
    return row?.[columns.indexOf('status')] ?? 'missing';
  }

  async waitForState(slot: number, wanted: string): Promise<void> {
    const deadline = Date.now() + WAIT_MS;
    while (Date.now() < deadline) {
      if ((await this.state(slot)) === wanted) return;
      await sleep(100);
    }
    throw new Error(`HAProxy never saw app${slot + 1} ${wanted}; its log:\n${this.haproxyLog.slice(-4000)}`);
  }

  async logs(replica: Replica): Promise<Record<string, unknown>[]> {
    return parseLog(this.retiredLogs.get(replica.name) ?? (await this.engine.must(['logs', replica.name])));
  }

  /** Every log line of every replica that ran, current and retired. */
  async allLogs(): Promise<Record<string, unknown>[]> {
    const current = await Promise.all(this.replicas.map((replica) => this.engine.must(['logs', replica.name])));
    return [...this.retiredLogs.values(), ...current].flatMap(parseLog);
  }

  /** Replaces one replica: stop (its drain), keep its logs, remove it, start `image` in its place. */
  async replace(slot: number, image: string): Promise<{ exitCode: string }> {
    const old = this.replicas[slot]!;
    await this.engine.must(['stop', '-t', String(STOP_TIMEOUT_S), old.name], 60_000);
    const exitCode = (await this.engine.must(['inspect', '--format', '{{.State.ExitCode}}', old.name])).trim();
    this.retiredLogs.set(old.name, await this.engine.must(['logs', old.name]));
    await this.engine.must(['rm', old.name]);
    this.replicas[slot] = await this.run(slot, old.port, image);
    await this.waitForState(slot, 'UP');
    return { exitCode };
  }

  async stop(): Promise<void> {
    if (this.haproxy && this.haproxy.exitCode === null) {
      const exited = new Promise((resolve) => this.haproxy!.once('exit', resolve));
      this.haproxy.kill('SIGTERM');
      await exited;
    }
    for (const replica of this.replicas) if (replica) await this.engine.run(['rm', '--force', replica.name]);
  }
}
