import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../support/browser.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

// Public pages are private, no-cache rather than no-store (server/edge/send-response.ts), so the
// browser may keep them in its back/forward cache. (Which pages are no-store is pinned over
// HTTP in tests/pages/page-caching.test.ts: Chromium now restores some no-store pages too, so a
// browser cannot show that side.)

type Marked = Window & { kept?: string };

describe('the back/forward cache', () => {
  // A Chromium of its own: the worker's shared one runs without the cache, as Playwright launches it.
  const suite = {} as { host: TestApp; origin: string; browser: Browser };
  beforeAll(async () => {
    suite.host = createTestApp();
    suite.origin = await suite.host.listen();
    suite.browser = await launchBrowser({ backForwardCache: true });
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.host?.close();
  });

  /** Whether the page at `path` comes back from memory on Back: its JavaScript heap is still there. */
  async function backAfterDocumentLoad(path: string): Promise<boolean> {
    const { page, close } = await openPage(suite.browser);
    await page.goto(`${suite.origin}${path}`);
    await page.waitForSelector('html[data-hydrated="true"]');
    await page.evaluate(() => ((window as Marked).kept = 'before leaving'));
    // Another document, not a client navigation: only then does the page leave memory.
    await page.goto(`${suite.origin}/fixture/elsewhere`);
    // A page restored from memory fires no load event: wait for the commit, then a complete document.
    await page.goBack({ waitUntil: 'commit' });
    await page.waitForFunction((wanted) => location.pathname === wanted && document.readyState === 'complete', path);
    const kept = await page.evaluate(() => (window as Marked).kept);
    await close();
    return kept === 'before leaving';
  }

  it('restores a public page on Back, its scripts and state still running', async () => {
    expect(await backAfterDocumentLoad('/fixture/kept')).toBe(true);
  });
});
