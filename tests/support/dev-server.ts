import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { freePort, sleep } from '../../tools/harness/net.ts';
import { ROOT } from '../../tools/harness/paths.ts';
import { DIAG_TOKEN } from './test-app.ts';

// `npm run dev` as a developer runs it (tsx, Vite in middleware mode, pretty logs), in a copy of
// the sources that its tests may edit.

/** How much of the dev server's output a failing test shows (its last characters). */
export const OUTPUT_SHOWN = 6_000;
/** What the dev server reads. */
const DEV_SOURCES = [
  'client',
  'server',
  'shared',
  'public',
  'vite.config.ts',
  'react-router.config.ts',
  'vite',
  'tsconfig.json',
  'package.json',
];

/**
 * A checkout of the sources in a folder of its own. Tests edit loaders and pages: in the
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

export interface DevServer {
  /** The copy of the sources it serves, which a test may edit. */
  readonly root: string;
  readonly url: string;
  readonly port: string;
  readonly hmrPort: number;
  readonly child: ChildProcess;
  /** Resolves when npm exits. */
  readonly exited: Promise<unknown>;
  /** What it said so far (tsx watch, Vite, the host's logs). */
  output(): string;
  /** Stops it (if it still runs) and removes the copy. */
  stop(): Promise<void>;
}

/** Starts `npm run dev` on a copy of the sources; whatever it got to is stopped if it fails to start. */
export async function startDevServer(env: Record<string, string> = {}): Promise<DevServer> {
  const root = checkoutCopy();
  let child: ChildProcess | undefined;
  let exited: Promise<unknown> = Promise.resolve();
  const stop = async () => {
    try {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };
  try {
    // Its own HMR port: a developer's dev server (on Vite's default) may be running beside it.
    const hmrPort = await freePort();
    const dev = spawn('npm', ['run', 'dev'], {
      cwd: root,
      // Vite compiles each module on its first request: on a busy machine that can outlast the
      // default stream timeout, which is not what these tests are about.
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: '0',
        HOST: '127.0.0.1',
        DIAGNOSTICS_TOKEN: DIAG_TOKEN,
        STREAM_TIMEOUT_MS: '60000',
        HMR_PORT: String(hmrPort),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = dev;
    exited = new Promise((resolve) => dev.on('exit', resolve));
    const watched = watchOutput(dev, exited);
    const port = await watched.port;
    return { root, url: `http://127.0.0.1:${port}`, port, hmrPort, child: dev, exited, output: watched.output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Vite's file watcher (chokidar) drops a second change of one file within 50 ms of the first
 * (its `_throttle(EV_CHANGE, path, 50)`): a fix written that soon after the break is never seen,
 * and the module stays broken until the file changes again. People save slower than this.
 */
const WATCHER_DROPS_CHANGES_WITHIN_MS = 50;

/**
 * Edits a module of the dev server's copy so it does not compile, once the server's answer to
 * `probe` is no longer a 200 (the first answer after the edit may still be the old module's);
 * `fixed()` puts it back and waits for the 200.
 */
export async function breakModule(
  dev: DevServer,
  path: string,
  edit: (source: string) => string,
  probe: string,
): Promise<{ fixed(): Promise<void> }> {
  const file = join(dev.root, path);
  const source = readFileSync(file, 'utf8');
  writeFileSync(file, edit(source));
  const status = async () => (await fetch(`${dev.url}${probe}`)).status;
  await expect.poll(status, { timeout: 15_000 }).not.toBe(200);
  return {
    async fixed() {
      await sleep(2 * WATCHER_DROPS_CHANGES_WITHIN_MS);
      writeFileSync(file, source);
      await expect.poll(status, { timeout: 15_000 }).toBe(200);
    },
  };
}
