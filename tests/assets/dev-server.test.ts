import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { closeContexts, openPage, sharedBrowser } from '../support/browser.ts';
import { breakModule, OUTPUT_SHOWN, startDevServer, type DevServer } from '../support/dev-server.ts';
import { DIAG } from '../support/test-app.ts';

// `npm run dev` as a developer runs it: tsx, Vite in middleware mode with React Router's plugin,
// pretty logs, serving the demo app in client/ (what `npm run dev` serves).

/** A local address answers or refuses at once; past this, call it refused. */
const CONNECT_TIMEOUT_MS = 2_000;

/** Whether something accepts TCP connections at `host`:`port`. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: CONNECT_TIMEOUT_MS });
    const done = (accepted: boolean) => {
      socket.destroy();
      resolve(accepted);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/**
 * Addresses of this machine other than 127.0.0.1: 127.0.0.2, which Linux answers on loopback
 * (so the check holds on a machine with no network), and each interface's own (link-local ones
 * need a scope, and are left out).
 */
function otherAddresses(): string[] {
  const own = Object.values(networkInterfaces())
    .flat()
    .filter((info) => info !== undefined && !info.internal && !info.address.startsWith('fe80:'))
    .map((info) => info!.address);
  return ['127.0.0.2', ...own];
}

// One `npm run dev` (npm, tsx watch, the server) serves every test here, and the last one stops
// it: a dev server costs seconds of CPU to start, and the suite is CPU-bound.
describe('`npm run dev`', () => {
  let dev: DevServer | undefined;
  let url: string;
  let port: string;
  let hmrPort: number;
  let root: string;
  let browser: Browser;
  beforeAll(async () => {
    [dev, browser] = await Promise.all([startDevServer(), sharedBrowser()]);
    ({ url, port, hmrPort, root } = dev);
  });
  // A failure shows what the server (tsx watch, Vite, the host) said: its log is not kept.
  beforeEach(({ onTestFailed }) => onTestFailed(() => console.error(`npm run dev said:\n${dev?.output().slice(-OUTPUT_SHOWN)}`)));
  afterAll(async () => {
    await closeContexts(browser);
    await dev?.stop();
  });

  it('logs pretty lines by default, for a person at the terminal', () => {
    expect(dev!.output()).toMatch(/\] INFO: listening on http/);
    expect(dev!.output()).not.toContain('"msg":"listening on');
  });

  /** A route module that does not compile: every page is the dev error page meanwhile (the server build imports every route). */
  const brokenPage = () =>
    breakModule(
      dev!,
      'client/pages/guide.tsx',
      (source) => source.replace('<h1>{topic.title}</h1>', '<h1>{topic.title}</h1}'),
      '/guide/streaming',
    );

  it('an edited loader reaches the open page as fresh data, with no document load, and the next request: no restart', async () => {
    // React Router's hot data revalidation through the host's dev frontend (server/assets/frontend.ts),
    // after a compile error fixed while no page listened (every page is the error page meanwhile):
    // Vite handed that error to the next page, which showed it and loaded its document again on
    // the first edit (server/assets/hmr-errors.ts).
    await (await brokenPage()).fixed();
    const { page, close } = await openPage(browser);
    try {
      // As a developer opens it: Vite's HMR client connects to the page's host name.
      const origin = url.replace('127.0.0.1', 'localhost');
      const documents: string[] = [];
      const data: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'document') documents.push(request.url());
        else if (new URL(request.url()).pathname.endsWith('.data')) data.push(request.url());
      });
      // Vite's client logs "[vite] connected." once its WebSocket is open: an event sent before is lost.
      const connected = page.waitForEvent('console', { predicate: (message) => message.text().includes('[vite] connected') });
      await page.goto(`${origin}/about`);
      await connected;
      await page.locator('html[data-hydrated="true"]').waitFor();
      // A value set on the page's window survives only if the document is never loaded again.
      await page.evaluate(() => Object.assign(window, { devLoopMarker: true }));
      const file = join(root, 'client/pages/about.tsx');
      const marker = `EDITED-${hmrPort}`;
      writeFileSync(file, readFileSync(file, 'utf8').replace('servedAt: new Date().toISOString()', `servedAt: '${marker}'`));
      await page.getByText(`Served at ${marker}.`).waitFor({ timeout: 15_000 });
      expect(await page.evaluate(() => (window as { devLoopMarker?: boolean }).devLoopMarker)).toBe(true);
      expect(documents).toEqual([`${origin}/about`]);
      expect(data.length).toBeGreaterThan(0);
      expect(await page.locator('vite-error-overlay').count()).toBe(0);
    } finally {
      await close();
    }
    expect(await (await fetch(`${url}/about`)).text()).toContain(`EDITED-${hmrPort}`);
    // Started once: neither the edit nor anything before it restarted the server under tsx watch.
    expect(dev!.output().match(/listening on http/g)).toHaveLength(1);
  });

  it('a page whose browser module does not compile shows the error in Vite’s overlay', async () => {
    // A module only the browser loads: the page itself renders, and its HMR client is told.
    const module = 'client/router/stale-chunk.ts';
    const brokenModule = await breakModule(dev!, module, (source) => `${source}\nconst = ;\n`, `/${module}`);
    const { page, close } = await openPage(browser);
    try {
      await page.goto(`${url.replace('127.0.0.1', 'localhost')}/about`);
      await page.locator('vite-error-overlay').waitFor({ state: 'attached', timeout: 10_000 });
      expect(await page.locator('vite-error-overlay').evaluate((overlay) => overlay.shadowRoot?.textContent ?? '')).toContain(module);
    } finally {
      await close();
      await brokenModule.fixed();
    }
  });

  it('shows the stack at the source line that threw', async () => {
    const res = await fetch(`${url}/_diag/server-error`, { headers: DIAG });
    expect(res.status).toBe(500);
    const html = await res.text();
    const source = readFileSync(join(root, 'client/router/diagnostics/server-error.tsx'), 'utf8').split('\n');
    const line = source.findIndex((text) => text.includes('throw new Error')) + 1;
    const column = source[line - 1]!.indexOf('new Error') + 1;
    expect(html).toContain(`server-error.tsx:${line}:${column}`);
  });

  /** The stylesheets a page links (React Router's <Links/>: in development its critical CSS, then the route modules'). */
  const stylesheets = (html: string) => [...html.matchAll(/<link[^>]* rel="stylesheet" href="([^"]+)"/g)].map((match) => match[1]!);

  it('links the stylesheets, so a page is styled before its JavaScript runs', async () => {
    const hrefs = stylesheets(await (await fetch(`${url}/`)).text());
    // React Router's critical CSS of the page's routes, and the app's own stylesheet.
    expect(hrefs).toEqual(['/@react-router/critical.css?pathname=/', '/client/styles.css']);
    for (const href of hrefs) {
      const css = await fetch(`${url}${href}`, { headers: { accept: 'text/css,*/*;q=0.1' } });
      expect(css.headers.get('content-type')).toContain('text/css');
    }
    expect(await (await fetch(`${url}/client/styles.css`, { headers: { accept: 'text/css,*/*;q=0.1' } })).text()).toMatch(/^[:.\w/* ]/);
  });

  it('links the stylesheet a page module imports, found in the module graph: its first paint is styled, JavaScript or not', async () => {
    const hrefs = stylesheets(await (await fetch(`${url}/guestbook`)).text());
    expect(hrefs).toContain('/client/pages/guestbook/guestbook.css');
    const css = await fetch(`${url}/client/pages/guestbook/guestbook.css`, { headers: { accept: 'text/css,*/*;q=0.1' } });
    expect(await css.text()).toContain('.guestbook-form');
    // The home page imports no such stylesheet.
    expect(await (await fetch(`${url}/`)).text()).not.toContain('guestbook.css');
  });

  it('a route boundary shows the failure’s message and stack, in development only', async () => {
    const res = await fetch(`${url}/_diag/loader-error`, { headers: DIAG });
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toContain('Diagnostic loader error: the loader threw');
    expect(html).toMatch(/loader-error\.tsx:\d+:\d+/);
    expect(html).toContain('data-testid="diag-layout"'); // in the route's boundary, the layout kept
  });

  it('serves the browser the HMR port it was given', async () => {
    const client = await (await fetch(`${url}/@vite/client`)).text();
    expect(client).toContain(`${hmrPort}`);
  });

  it('the HMR WebSocket listens where the app does (HOST, 127.0.0.1 here), not on this machine’s other addresses', async () => {
    expect(await accepts('127.0.0.1', hmrPort)).toBe(true);
    const hmr = await fetch(`http://127.0.0.1:${hmrPort}/`);
    expect(hmr.status).toBe(426); // the HMR port itself, not something else on it
    for (const address of otherAddresses()) {
      expect(await accepts(address, Number(port)), `the app on ${address}`).toBe(false);
      expect(await accepts(address, hmrPort), `HMR on ${address}`).toBe(false);
    }
  });

  it('the client entry is no Fast Refresh boundary: an edit below it reloads the page, never hydrates it twice', async () => {
    // The host's browser entry (vite/react-router-host.ts puts it in place of React Router's default).
    const entry = await (await fetch(`${url}/client/router/entry.client.tsx`)).text();
    expect(entry).toContain('hydrateRoot');
    expect(entry).not.toContain('import.meta.hot.accept');
    // The same check on a module that is one, so the check itself can fail.
    const hydrated = await (await fetch(`${url}/client/router/Hydrated.tsx`)).text();
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

  it('a syntax error in a page shows its code frame as plain text, without terminal colour codes', async () => {
    const broken = await brokenPage();
    try {
      const html = await (await fetch(`${url}/guide/streaming`)).text();
      // Vite's transform error colours its code frame for a terminal (ESC [ … m).
      expect(html).not.toContain('\u001b');
      expect(html).not.toMatch(/\[\d+(?:;\d+)*m/);
      expect(html).toContain('PARSE_ERROR');
      expect(html).toMatch(/client\/pages\/guide\.tsx:\d+:\d+/);
    } finally {
      await broken.fixed();
    }
  });

  // Last: it stops the server the tests above share.
  it('SIGTERM to npm (a supervisor’s stop) stops every process under it: nothing is left listening', async () => {
    dev!.child.kill('SIGTERM');
    await dev!.exited;
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
