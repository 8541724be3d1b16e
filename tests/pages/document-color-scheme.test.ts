import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { CRAWLER_UA } from '../../tools/harness/user-agents.ts';
import { createTestApp, DIAG } from '../support/test-app.ts';

// The document is the app's: the host declares no colour scheme in it, or a light-only app would
// be drawn with dark form controls and canvas, black on black, under a dark OS theme. The host's
// own error pages keep theirs, whose stylesheet colours light and dark (shared/error-page-css.ts).
// The demo's own declaration is the demo's test (tests/demo/color-scheme.test.ts).

const META = /<meta name="color-scheme"[^>]*>/g;
const BOT = { 'user-agent': CRAWLER_UA };

describe('the colour scheme', () => {
  it("is the app's to declare: no meta from the host on a page, nor on the app's own error boundary", async () => {
    const { app } = createTestApp();
    for (const [path, status] of [
      ['/', 200],
      ['/fixture/ada', 200],
      ['/writes?do=throw', 500],
    ] as const) {
      const page = await request(app).get(path).set(BOT).set(DIAG).expect(status);
      expect(page.text.match(META), path).toBeNull();
    }
  });

  it("the host's own error page declares light dark, its stylesheet colouring both", async () => {
    // A method the page does not take: the host answers before the app, with its own page.
    const page = await request(createTestApp().app).delete('/fixture/ada').expect(405);
    expect(page.text.match(META)).toEqual(['<meta name="color-scheme" content="light dark"/>']);
    expect(page.text).toContain('@media (prefers-color-scheme:dark)');
  });
});
