import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchOnce, openStream } from '../../tools/harness/http.ts';
import { ROOT } from '../../tools/harness/paths.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { APP_BUILDS, DIAG, DIAG_TOKEN } from '../support/test-app.ts';
import { BROWSER_UA } from '../../tools/harness/user-agents.ts';

describe('production process', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.stop('SIGKILL');
    server = undefined;
  });

  it('starts with npm start and serves the page and its assets', async () => {
    // The built host (npm start builds dist/ only when it is stale) serving the fixture app.
    server = await startServer({ APP_BUILD: APP_BUILDS.host }, ['npm', 'start', '--silent']);
    const page = await fetchOnce(`${server.url}/`, { headers: { 'user-agent': BROWSER_UA } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>Fixture home</h1>');
    // React Router's browser entry, which the page's module script starts.
    const script = /<link rel="modulepreload" href="(\/assets\/entry\.client-[\w-]+\.js)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${server.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await asset.text()).length).toBeGreaterThan(0);
  });

  it('npm start where only production dependencies are installed and nothing is built says so in one line and exits 1', () => {
    // A checkout with its sources but no node_modules/vite and no dist/: what `npm ci --omit=dev` leaves.
    const dir = mkdtempSync(join(tmpdir(), 'react-ssr-host-nodev-'));
    try {
      for (const path of ['package.json', 'tools/ensure-build.js', 'server/index.ts']) cpSync(join(ROOT, path), join(dir, path));
      const result = spawnSync('npm', ['start', '--silent'], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, NODE_ENV: 'production' },
      });
      expect(result.status).toBe(1);
      const lines = `${result.stdout}${result.stderr}`.split('\n').filter((line) => line.trim() && !line.startsWith('npm warn'));
      expect(lines).toEqual([
        expect.stringMatching(/^No build in dist\/ and no dev dependencies to make one: run `npm ci && npm run build`/),
      ]);
      expect(existsSync(join(dir, 'dist'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('on %s lets an in-flight stream finish, then exits 0', async (signal) => {
    server = await startServer({ APP_BUILD: APP_BUILDS.host, DIAGNOSTICS_TOKEN: DIAG_TOKEN, SHUTDOWN_GRACE_MS: '10000' });
    const stream = await openStream(`${server.url}/_diag/slow?ms=800`, { 'user-agent': BROWSER_UA, ...DIAG }, 'Waiting 800 ms');
    expect(stream).toMatchObject({ open: true, first: expect.stringContaining('Waiting 800 ms') });
    server.child.kill(signal);
    const done = await stream.rest;
    expect(done.body).toContain('Finished after 800 ms.');
    expect(done.body.trimEnd().endsWith('</html>')).toBe(true);
    expect((await server.exited).code).toBe(0);
    // The last lines were written: the access line of the slow request, then the stop.
    const messages = server.logs.lines.map((line) => line.msg);
    expect(messages.at(-1)).toBe('stopped');
    expect(server.logs.lines.some((line) => line.path === '/_diag/slow')).toBe(true);
  });

  it('closes what is left after the grace period and exits non-zero', async () => {
    server = await startServer({
      APP_BUILD: APP_BUILDS.host,
      DIAGNOSTICS_TOKEN: DIAG_TOKEN,
      SHUTDOWN_GRACE_MS: '200',
      STREAM_TIMEOUT_MS: '60000',
    });
    const stream = await openStream(`${server.url}/_diag/slow?ms=20000`, { 'user-agent': BROWSER_UA, ...DIAG });
    server.child.kill('SIGTERM');
    await expect(stream.rest).rejects.toThrow();
    expect((await server.exited).code).toBe(1);
    expect(server.logs.lines.some((line) => line.msg === 'grace period over: closing the connections still open')).toBe(true);
  });
});
