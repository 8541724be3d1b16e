import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../../tools/harness/net.ts';
import { ROOT } from '../../tools/harness/paths.ts';
import { DIAG, DIAG_TOKEN } from '../support/test-app.ts';

// `npm run dev` as a developer runs it: tsx, Vite in middleware mode, pretty logs.

/** How much of the dev server's output a failing test shows (its last characters). */
const OUTPUT_SHOWN = 6_000;
/** What the dev server reads. */
const DEV_SOURCES = ['client', 'server', 'shared', 'public', 'vite.config.ts', 'tsconfig.json', 'package.json'];

/**
 * A checkout of the sources in a folder of its own. A test here edits a loader: in the
 * repository that edit would make the build look stale, and `npm start` in another test file
 * would rebuild dist/ under the servers reading it (a replica started from a copy of it once
 * exited that way).
 *
 * Its node_modules is a folder of links to the installed packages, not one link to the whole:
 * Vite writes its bundled config into node_modules/.vite-temp, imports it and deletes it, and
 * `tsx watch` restarts on the deletion of anything Node imported unless its path, relative to
 * the checkout, is under node_modules or a dot-folder. Through a linked node_modules that path
 * leads out of the checkout (`../../work/…`), which tsx's patterns do not match, and the server
 * restarted under the tests.
 */
function checkoutCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'react-ssr-host-dev-'));
  for (const path of DEV_SOURCES) cpSync(join(ROOT, path), join(dir, path), { recursive: true });
  const modules = join(ROOT, 'node_modules');
  mkdirSync(join(dir, 'node_modules'));
  for (const name of readdirSync(modules)) {
    // Vite's caches stay the repository's own; .bin holds the commands (tsx).
    if (name.startsWith('.') && name !== '.bin') continue;
    symlinkSync(join(modules, name), join(dir, 'node_modules', name));
  }
  return dir;
}

/** The dev server's output so far, and the port it announces (rejected when it exits first). */
function watchOutput(child: ChildProcess, exited: Promise<unknown>) {
  const seen = { text: '' };
  const port = new Promise<string>((resolve, reject) => {
    const onData = (text: string) => {
      seen.text += text;
      const found = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(seen.text)?.[1];
      if (found !== undefined) resolve(found);
    };
    child.stdout!.setEncoding('utf8').on('data', onData);
    child.stderr!.setEncoding('utf8').on('data', onData);
    void exited.then(() => reject(new Error(`npm run dev exited: ${seen.text}`)));
  });
  return { port, output: () => seen.text };
}

// One `npm run dev` (npm, tsx watch, the server) serves every test here, and the last one stops
// it: a dev server costs seconds of CPU to start, and the suite is CPU-bound.
describe('`npm run dev`', () => {
  let url: string;
  let port: string;
  let hmrPort: number;
  let child: ChildProcess | undefined;
  let exited: Promise<unknown> = Promise.resolve();
  let output: () => string;
  let root: string;
  beforeAll(async () => {
    root = checkoutCopy();
    // Its own HMR port: a developer's dev server (on Vite's default) may be running beside it.
    hmrPort = await freePort();
    const dev = spawn('npm', ['run', 'dev'], {
      cwd: root,
      // Vite compiles each module on its first request: on a busy machine that can outlast the
      // default stream timeout, which is not what this test is about.
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: '0',
        HOST: '127.0.0.1',
        DIAGNOSTICS_TOKEN: DIAG_TOKEN,
        STREAM_TIMEOUT_MS: '60000',
        HMR_PORT: String(hmrPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = dev;
    exited = new Promise((resolve) => dev.on('exit', resolve));
    const watched = watchOutput(dev, exited);
    output = watched.output;
    port = await watched.port;
    url = `http://127.0.0.1:${port}`;
  });
  // A failure shows what the server (tsx watch, Vite, the host) said: its log is not kept.
  beforeEach(({ onTestFailed }) => onTestFailed(() => console.error(`npm run dev said:\n${output().slice(-OUTPUT_SHOWN)}`)));
  // Also after a failed start: whatever beforeAll got to is stopped and removed.
  afterAll(async () => {
    try {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    } finally {
      if (root) rmSync(root, { recursive: true, force: true });
    }
  });

  it('shows the stack at the source line that threw', async () => {
    const res = await fetch(`${url}/_diag/server-error`, { headers: DIAG });
    expect(res.status).toBe(500);
    const html = await res.text();
    const source = readFileSync(join(root, 'client/pages/diagnostics/ServerError.tsx'), 'utf8').split('\n');
    const line = source.findIndex((text) => text.includes('throw new Error')) + 1;
    const column = source[line - 1]!.indexOf('new Error') + 1;
    expect(html).toContain(`ServerError.tsx:${line}:${column}`);
  });

  it('links the stylesheets, so a page is styled before its JavaScript runs', async () => {
    const html = await (await fetch(`${url}/`)).text();
    const hrefs = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((match) => match[1]!);
    expect(hrefs).toEqual(['/client/styles.css', '/shared/error-page.css']);
    for (const href of hrefs) {
      const css = await fetch(`${url}${href}`, { headers: { accept: 'text/css,*/*;q=0.1' } });
      expect(css.headers.get('content-type')).toContain('text/css');
      expect(await css.text()).toMatch(/^[:.\w/* ]/);
    }
  });

  it('links the stylesheet a page module imports, found in the module graph: its first paint is styled, JavaScript or not', async () => {
    const html = await (await fetch(`${url}/guestbook`)).text();
    const hrefs = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((match) => match[1]!);
    expect(hrefs).toEqual(['/client/styles.css', '/shared/error-page.css', '/client/pages/guestbook/guestbook.css']);
    const css = await fetch(`${url}${hrefs[2]}`, { headers: { accept: 'text/css,*/*;q=0.1' } });
    expect(await css.text()).toContain('.guestbook-form');
    // The home page imports no such stylesheet.
    expect(await (await fetch(`${url}/`)).text()).not.toContain('guestbook.css');
  });

  it('a route boundary shows the failure’s message and stack, in development only', async () => {
    const res = await fetch(`${url}/_diag/loader-error`, { headers: DIAG });
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toContain('Diagnostic loader error: the loader threw');
    expect(html).toMatch(/loader-error\.server\.ts:\d+:\d+/);
    expect(html).toContain('data-testid="diag-layout"'); // in the route's boundary, the layout kept
  });

  it('serves the browser the HMR port it was given', async () => {
    const client = await (await fetch(`${url}/@vite/client`)).text();
    expect(client).toContain(`${hmrPort}`);
  });

  it('the client entry is no Fast Refresh boundary: an edit below it reloads the page, never hydrates it twice', async () => {
    const entry = await (await fetch(`${url}/client/entry-client.tsx`)).text();
    expect(entry).not.toContain('import.meta.hot.accept');
    // The same check on a module that is one, so the check itself can fail.
    const hydrated = await (await fetch(`${url}/client/Hydrated.tsx`)).text();
    expect(hydrated).toContain('import.meta.hot.accept');
  });

  it('a page’s action and an API route share one store module, as in production', async () => {
    const name = `Dev ${hmrPort}`;
    const posted = await fetch(`${url}/guestbook`, {
      method: 'POST',
      body: new URLSearchParams({ name, message: 'one module instance' }),
      redirect: 'manual',
    });
    expect(posted.status).toBe(303);
    const api = (await (await fetch(`${url}/api/guestbook`)).json()) as { entries: { name: string }[] };
    expect(api.entries.map((entry) => entry.name)).toContain(name);
  });

  it('an edited loader takes effect on the next request, without a restart', async () => {
    const file = join(root, 'client/pages/about.server.ts');
    const marker = `EDITED-${hmrPort}`;
    writeFileSync(file, readFileSync(file, 'utf8').replace('servedAt: new Date()', `servedAt: '${marker}'`));
    await expect.poll(async () => (await fetch(`${url}/about`)).text(), { timeout: 15_000 }).toContain(marker);
    // Started once: neither the edit nor anything before it restarted the server under tsx watch.
    expect(output().match(/listening on http/g)).toHaveLength(1);
  });
  // Last: it stops the server the tests above share.
  it('SIGTERM to npm (a supervisor’s stop) stops every process under it: nothing is left listening', async () => {
    child!.kill('SIGTERM');
    await exited;
    // The server (a grandchild of npm, under tsx watch) was orphaned before npm's script exec'd tsx.
    await expect
      .poll(
        () =>
          fetch(`http://127.0.0.1:${port}/healthz`).then(
            () => 'listening',
            () => 'closed',
          ),
        { timeout: 10_000 },
      )
      .toBe('closed');
  });
});
