import { describe, expect, it } from 'vitest';
import { clientErrorMessage, NOT_FOUND_MESSAGE, serverErrorMessage } from '../../shared/messages.ts';
import { browserSuite, screenshot } from '../support/browser.ts';
import { DIAG } from '../support/test-app.ts';

// Every error screen, at a phone's and a desktop's width, light and dark: styled the same way
// whether the server or the browser drew it. The screenshots land in artifacts/screenshots/.

const SCREENS = [
  { name: 'route-boundary', path: '/_diag/loader-error', selector: 'section[role="alert"]', text: serverErrorMessage('localhost') },
  { name: 'not-found', path: '/fixture/gone?missing', selector: 'section[role="alert"]', text: NOT_FOUND_MESSAGE },
  { name: 'server-error-page', path: '/_diag/server-error', selector: 'main [role="alert"]', text: serverErrorMessage('localhost') },
  { name: 'client-error-page', path: '/_diag/client-error', selector: 'main [role="alert"]', text: clientErrorMessage('localhost') },
] as const;
const WIDTHS = [375, 1280] as const;
const SCHEMES = ['light', 'dark'] as const;

describe('error screens', () => {
  const suite = browserSuite();

  for (const screen of SCREENS) {
    it(`${screen.name} is styled, centred and follows the colour scheme at 375 and 1280 px`, async () => {
      // One load per screen; the four renderings change only the viewport and the colour scheme.
      const context = await suite.browser.newContext({ extraHTTPHeaders: DIAG, viewport: { width: WIDTHS[0], height: 800 } });
      const backgrounds: string[] = [];
      try {
        const page = await context.newPage();
        await page.goto(`${suite.origin}${screen.path}`);
        const alert = page.locator(screen.selector);
        await alert.waitFor();
        expect(await alert.innerText()).toContain(screen.text);
        for (const colorScheme of SCHEMES) {
          for (const width of WIDTHS) {
            await page.emulateMedia({ colorScheme });
            await page.setViewportSize({ width, height: 800 });
            const style = await alert.evaluate((element) => {
              // The frame: a route boundary's alert section, or the <main> around a whole page's alert.
              const css = getComputedStyle(element.closest('.error')!);
              const heading = getComputedStyle(element.querySelector('h2')!);
              return {
                align: css.textAlign,
                display: css.display,
                background: css.backgroundColor,
                headingSize: heading.fontSize,
                overflow: document.documentElement.scrollWidth > innerWidth,
              };
            });
            expect(style).toMatchObject({ align: 'center', display: 'flex', headingSize: '14px', overflow: false });
            await screenshot(page, `${screen.name}-${width}-${colorScheme}`);
            backgrounds.push(style.background);
          }
        }
      } finally {
        await context.close();
      }
      // The light and dark renderings differ (same width, other scheme).
      expect(backgrounds[0]).not.toBe(backgrounds[WIDTHS.length]);
    });
  }
});
