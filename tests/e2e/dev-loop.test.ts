import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closeContexts, openPage, sharedBrowser } from '../support/browser.ts';
import { LISTENING_PREFIX } from '../../shared/log-line.ts';
import { OUTPUT_SHOWN, startDevServer, type DevServer } from '../support/dev-server.ts';

// The dev loop in a browser: an edit of a loader reaches the open page as fresh data, with no
// document load (React Router's hot data revalidation through the host's dev frontend,
// server/assets/frontend.ts). `npm run dev` serves the app in client/, the demo: its about page.

describe('the dev loop', () => {
  let dev: DevServer | undefined;
  let browser: Browser;
  let origin: string;
  beforeAll(async () => {
    // JSON lines, as a developer feeding the digest tool would ask (pretty is the dev default).
    dev = await startDevServer({ LOG_FORMAT: 'json' });
    // As a developer opens it: Vite's HMR client connects to the page's host name.
    origin = dev.url.replace('127.0.0.1', 'localhost');
    browser = await sharedBrowser();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => console.error(`npm run dev said:\n${dev?.output().slice(-OUTPUT_SHOWN)}`)));
  afterAll(async () => {
    await closeContexts(browser);
    await dev?.stop();
  });

  it('logs JSON lines in development when LOG_FORMAT=json', () => {
    const lines = dev!
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string });
    expect(lines.find((line) => line.msg?.startsWith(LISTENING_PREFIX))).toMatchObject({ level: 30, env: 'development' });
    // pino-pretty's form of the same line.
    expect(dev!.output()).not.toMatch(/\] INFO: listening on/);
  });

  it('an edited loader revalidates the open page’s data without reloading it', async () => {
    const { page, close } = await openPage(browser);
    try {
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
      const file = join(dev!.root, 'client/pages/about.tsx');
      const marker = `EDITED-${dev!.hmrPort}`;
      writeFileSync(file, readFileSync(file, 'utf8').replace('servedAt: new Date().toISOString()', `servedAt: '${marker}'`));
      await page.getByText(`Served at ${marker}.`).waitFor({ timeout: 15_000 });
      expect(await page.evaluate(() => (window as { devLoopMarker?: boolean }).devLoopMarker)).toBe(true);
      expect(documents).toEqual([`${origin}/about`]);
      expect(data.length).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });
});
