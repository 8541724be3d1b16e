import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite } from '../support/browser.ts';

// A route module's own stylesheet (tests/apps/host/app/routes/notes.css, in the notes page's
// `links` and no other page's) is applied on a document load, with JavaScript on and off, and
// before the page renders on a client navigation. `.notes-form` is a grid only by that
// stylesheet's rule; a form is a block otherwise.

const formDisplay = (page: Page) => page.locator('.notes-form').evaluate((form) => getComputedStyle(form).display);

describe('a route’s own stylesheet', () => {
  const suite = browserSuite();

  it.each([true, false])('a document load of the page is styled by its own stylesheet (JavaScript on: %s)', async (javaScriptEnabled) => {
    const context = await suite.browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    await page.goto(`${suite.origin}/notes`);
    expect(await formDisplay(page)).toBe('grid');
    await context.close();
  });

  it('a page that does not link it does not get it', async () => {
    const context = await suite.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${suite.origin}/members/sign-in`);
    const hrefs = await page.evaluate(() =>
      [...document.querySelectorAll('link[rel="stylesheet"], style[data-href]')].map(
        (node) => node.getAttribute('href') ?? node.getAttribute('data-href'),
      ),
    );
    expect(hrefs.length).toBeGreaterThan(0);
    expect(hrefs.join(' ')).not.toMatch(/notes/);
    await context.close();
  });

  it('a client navigation to the page renders it already styled: no flash of unstyled content', async () => {
    const context = await suite.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${suite.origin}/members/sign-in`);
    await page.waitForSelector('html[data-hydrated="true"]');
    // The form's computed display the moment React inserts it, before the browser can paint it.
    await page.evaluate(() => {
      const seen = window as unknown as { firstDisplay?: string; sameDocument: boolean };
      seen.sameDocument = true;
      new MutationObserver((_records, observer) => {
        const form = document.querySelector('.notes-form');
        if (form === null) return;
        seen.firstDisplay = getComputedStyle(form).display;
        observer.disconnect();
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByRole('link', { name: 'Notes' }).click();
    await page.locator('.notes-form').waitFor();
    const seen = await page.evaluate(() => {
      const { firstDisplay, sameDocument } = window as unknown as { firstDisplay?: string; sameDocument?: boolean };
      return { firstDisplay, sameDocument };
    });
    expect(seen.sameDocument).toBe(true);
    expect(seen.firstDisplay).toBe('grid');
    await context.close();
  });
});
