// The image as an operator gets it: built from a clean copy of the sources, run with only
// environment variables, probed over HTTP and through the engine's own commands.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILURE_MESSAGE, LEVEL } from '../../shared/log-line.ts';
import { FakeSentry } from '../support/fake-sentry.ts';
import { pageDigest } from '../../tools/harness/digests.ts';
import { openStream } from '../../tools/harness/http.ts';
import { freePort } from '../../tools/harness/net.ts';
import { parseLog, type LogLine } from '../../tools/harness/server-log.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';
import { copyBuildContext, findEngine, type Engine } from './engine.ts';

const IMAGE = 'react-ssr-host:test';
const DIAGNOSTICS_TOKEN = 'container-test-diagnostics-token';
const DEV_ONLY_PACKAGES = ['vite', 'vitest', 'typescript', 'tsx', '@vitejs/plugin-react', 'supertest', 'playwright-core'];
/** The one Node version the project runs on: the image's base tag and the node-linux-* packages name it too. */
const PINNED_NODE = `v${readFileSync(join(import.meta.dirname, '../../.node-version'), 'utf8').trim()}`;

const found = await findEngine();

/** The container's stdout, parsed: pino writes one JSON object per line. */
async function logLines(engine: Engine, id: string): Promise<LogLine[]> {
  return parseLog(await engine.must(['logs', id]));
}

async function waitUntilServing(engine: Engine, id: string, url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`${url}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    const running = (await engine.must(['inspect', '--format', '{{.State.Running}}', id])).trim();
    if (running !== 'true') break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the container never answered /healthz; its logs:\n${(await engine.run(['logs', id])).stdout}`);
}

if (found.engine === undefined) {
  console.log(`container test skipped: ${found.reason}`);
  it('builds and runs the image', ({ skip }) => skip(found.reason));
} else {
  const engine = found.engine;

  describe(`the container image (${engine.kind}: ${engine.command})`, () => {
    let context = '';
    let id = '';
    let url = '';
    const sentry = new FakeSentry();

    beforeAll(async () => {
      await sentry.start();
      context = mkdtempSync(join(tmpdir(), 'react-ssr-host-image-'));
      const files = copyBuildContext(context);
      const started = Date.now();
      // --pull=never: podman here has no registry; docker's --pull is a boolean and it never
      // re-pulls an image it has, so it needs no flag.
      const pull = engine.kind === 'podman' ? ['--pull=never'] : [];
      await engine.must(['build', ...pull, '--network', 'host', '-t', IMAGE, context]);
      console.log(`built ${IMAGE} from ${files} files in ${((Date.now() - started) / 1000).toFixed(1)} s`);

      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      // On docker the health status only changes on the image's 30 s interval: probe faster here.
      const health = engine.kind === 'docker' ? ['--health-interval', '1s'] : [];
      const env = {
        PORT: String(port),
        HOST: '127.0.0.1',
        DIAGNOSTICS_TOKEN,
        DIGEST_KEY: 'container-test-digest-key',
        SENTRY_DSN: sentry.dsn,
      };
      const envArgs = Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
      id = (await engine.must(['run', '-d', '--network', 'host', ...health, ...envArgs, IMAGE])).trim().split('\n').pop()!;
      await waitUntilServing(engine, id, url);
    });

    afterAll(async () => {
      if (id) await engine.run(['rm', '--force', id]);
      const size = await engine.run(['image', 'inspect', '--format', '{{.Size}}', IMAGE]);
      if (size.code === 0) console.log(`image size: ${(Number(size.stdout.trim()) / 1e6).toFixed(0)} MB`);
      await engine.run(['rmi', '--force', IMAGE]);
      if (context) rmSync(context, { recursive: true, force: true });
      await sentry.stop();
    });

    it('answers /healthz and renders the home page', async () => {
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.text()).toBe('ok');
      const home = await fetch(`${url}/`, { headers: { 'user-agent': BROWSER_UA } });
      expect(home.status).toBe(200);
      expect(await home.text()).toMatch(/<\/html>$/);
    });

    it('a server error page shows the digest of the one error line it logged', async () => {
      const res = await fetch(`${url}/_diag/server-error`, { headers: { 'x-diagnostics-token': DIAGNOSTICS_TOKEN } });
      expect(res.status).toBe(500);
      const digest = pageDigest(await res.text());
      expect(digest).toBeTruthy();
      const errors = (await logLines(engine, id)).filter((line) => line.level === LEVEL.error && line.msg === FAILURE_MESSAGE);
      expect(errors.map((line) => line.digest)).toEqual([digest]);
      expect(errors[0]!.reqId).toBeTruthy();
      // Sentry's --import preload works in the image: the same digest reaches the ingest.
      await sentry.waitFor(() => sentry.events().find((event) => (event.tags as Record<string, string>)?.digest === digest));
    });

    it('runs as the unprivileged node user, with code it cannot change, writing only its database folder', async () => {
      expect((await engine.must(['exec', id, 'id', '-u'])).trim()).toBe('1000');
      expect((await engine.must(['image', 'inspect', '--format', '{{.Config.User}}', IMAGE])).trim()).toBe('node');
      // Everything is root's, the operator's tool included: the server cannot change its own code.
      expect(await engine.must(['exec', id, 'find', '/app', '-path', '/app/data', '-prune', '-o', '!', '-user', 'root', '-print'])).toBe(
        '',
      );
      // But for its database (DATABASE_PATH's default, docs/data.md), made there at start-up as node.
      expect(
        (await engine.must(['exec', id, 'stat', '-c', '%U', '/app/data', '/app/data/app.sqlite'])).split('\n').filter(Boolean),
      ).toEqual(['node', 'node']);
    });

    it('holds the built app and production dependencies only', async () => {
      expect((await engine.must(['exec', id, 'ls', '-A', '/app'])).split('\n').filter(Boolean)).toEqual([
        'data',
        'dist',
        'node_modules',
        'package.json',
      ]);
      const present = await engine.must([
        'exec',
        id,
        'sh',
        '-c',
        'for p in "$@"; do [ -e "node_modules/$p" ] && echo "$p"; done; true',
        'sh',
        ...DEV_ONLY_PACKAGES,
      ]);
      expect(present.split('\n').filter(Boolean)).toEqual([]);
      await engine.must(['exec', id, 'test', '-e', 'node_modules/express']);
    });

    it('runs the pinned Node of its base image, with no Node package installed', async () => {
      expect((await engine.must(['exec', id, 'node', '--version'])).trim()).toBe(PINNED_NODE);
      const nodePackages = await engine.must([
        'exec',
        id,
        'sh',
        '-c',
        'ls -d node_modules/node-linux-* node_modules/.bin/node 2>/dev/null; true',
      ]);
      expect(nodePackages.trim()).toBe('');
    });

    it("passes the image's HEALTHCHECK", async () => {
      if (engine.kind === 'podman') {
        const result = await engine.run(['healthcheck', 'run', id]);
        expect(result, result.stderr).toMatchObject({ code: 0 });
        return;
      }
      await expect
        .poll(async () => (await engine.must(['inspect', '--format', '{{.State.Health.Status}}', id])).trim(), {
          timeout: 30_000,
          interval: 500,
        })
        .toBe('healthy');
    });

    it.each(['react-ssr-host-digest', 'npx --no-install react-ssr-host-digest'])(
      'runs the digest tool as `%s`, from the image alone',
      async (command) => {
        const result = await engine.run(['exec', id, ...command.split(' '), '--help']);
        expect(result, result.stderr).toMatchObject({ code: 0 });
        expect(result.stdout).toMatch(/digest top/);
      },
    );

    it('a stop during a streamed response finishes it, flushes Sentry, logs "stopped" and exits 0', async () => {
      const slow = await openStream(`${url}/_diag/slow?ms=3000`, { 'user-agent': BROWSER_UA, 'x-diagnostics-token': DIAGNOSTICS_TOKEN });
      const failed = await fetch(`${url}/_diag/api-error`, { headers: { 'x-diagnostics-token': DIAGNOSTICS_TOKEN } });
      const { digest } = ((await failed.json()) as { error: { digest: string } }).error;
      // `stop` sends the image's STOPSIGNAL (SIGTERM), then SIGKILL after its default 10 s: an
      // exit code of 0 (not 137) and the "stopped" line say the server finished before that.
      const [stopped, page] = await Promise.all([engine.must(['stop', id]), slow.rest]);
      expect(stopped.trim()).toBeTruthy();
      expect(page.status).toBe(200);
      expect(page.body).toContain('Finished after 3000 ms.');
      expect(page.body).toMatch(/<\/html>$/);
      expect((await engine.must(['inspect', '--format', '{{.State.ExitCode}}', id])).trim()).toBe('0');
      expect((await logLines(engine, id)).at(-1)).toMatchObject({ msg: 'stopped', clean: true });
      expect(sentry.events().filter((event) => (event.tags as Record<string, string>)?.digest === digest)).toHaveLength(1);
    });
  });
}
