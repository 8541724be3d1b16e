import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as appRenderer from '../../client/entry-server.tsx';
import { createProdFrontend } from '../../server/assets/frontend.ts';
import { closeContexts, sharedBrowser } from '../support/browser.ts';
import { CLIENT_DIR, createTestApp, type TestApp } from '../support/test-app.ts';

// A page module's own stylesheet (client/pages/guestbook/guestbook.css, imported by
// Guestbook.tsx, in no other page's CSS) is applied on a document load, with JavaScript on and
// off, and before the page renders on a client navigation. `.guestbook-form` is a grid only by
// that stylesheet's rule; a form is a block otherwise.

/** The production frontend as built (its stylesheets are under 14 KB: written into the page), or with them linked. */
function frontend(linked: boolean) {
  const built = createProdFrontend(CLIENT_DIR, appRenderer);
  return linked ? { ...built, styleText: undefined, assets: { ...built.assets, stylesInline: undefined } } : built;
}

const formDisplay = (page: Page) => page.locator('.guestbook-form').evaluate((form) => getComputedStyle(form).display);

describe.each([
  ['written into the document', false],
  ['linked', true],
])('route CSS %s', (_name, linked) => {
  let host: TestApp;
  let origin: string;
  let browser: Browser;
  beforeAll(async () => {
    host = createTestApp({}, { frontend: frontend(linked) });
    await host.listen();
    origin = `http://localhost:${new URL(host.url).port}`;
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    await closeContexts(browser);
    await host.close();
  });

  it.each([true, false])('a document load of the page is styled by its own stylesheet (JavaScript on: %s)', async (javaScriptEnabled) => {
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    await page.goto(`${origin}/guestbook`);
    expect(await formDisplay(page)).toBe('grid');
    await context.close();
  });

  it('a page that does not import it does not get it', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    const hrefs = await page.evaluate(() =>
      [...document.querySelectorAll('link[rel="stylesheet"], style[data-href]')].map(
        (node) => node.getAttribute('href') ?? node.getAttribute('data-href'),
      ),
    );
    expect(hrefs.join(' ')).not.toMatch(/Guestbook/);
    await context.close();
  });

  it('a client navigation to the page renders it already styled: no flash of unstyled content', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    await page.waitForSelector('html[data-hydrated="true"]');
    // The form's computed display the moment React inserts it, before the browser can paint it.
    await page.evaluate(() => {
      const seen = window as unknown as { firstDisplay?: string; sameDocument: boolean };
      seen.sameDocument = true;
      new MutationObserver((_records, observer) => {
        const form = document.querySelector('.guestbook-form');
        if (form === null) return;
        seen.firstDisplay = getComputedStyle(form).display;
        observer.disconnect();
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByRole('link', { name: 'Guestbook' }).first().click();
    await page.locator('.guestbook-form').waitFor();
    const seen = await page.evaluate(() => {
      const { firstDisplay, sameDocument } = window as unknown as { firstDisplay?: string; sameDocument?: boolean };
      return { firstDisplay, sameDocument };
    });
    expect(seen.sameDocument).toBe(true);
    expect(seen.firstDisplay).toBe('grid');
    await context.close();
  });
});
