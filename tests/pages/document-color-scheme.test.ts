import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { CRAWLER_UA } from '../../tools/harness/user-agents.ts';
import { createTestApp, DIAG } from '../support/test-app.ts';

// The document is the app's: the host declares no colour scheme in it (shared/Document.tsx), or a
// light-only app would be drawn with dark form controls and canvas, black on black, under a dark
// OS theme. The demo declares its own in its stylesheet (client/styles.css); the host's own error
// pages keep theirs, whose stylesheet colours light and dark (shared/error-page.css).

const META = /<meta name="color-scheme"[^>]*>/g;
const BOT = { 'user-agent': CRAWLER_UA };

describe('the colour scheme', () => {
  it("is the app's to declare: no meta from the host on a page, the demo's stylesheet says light dark", async () => {
    const { app } = createTestApp();
    for (const path of ['/', '/about', '/guestbook']) {
      const page = await request(app).get(path).set(BOT).expect(200);
      expect(page.text.match(META), path).toBeNull();
      // The built stylesheet, written into the page (server/assets/frontend.ts inlines it).
      expect(page.text, path).toMatch(/<style[^>]*>[^<]*:root\{[^}]*color-scheme:light dark/);
    }
  });

  it("the host's own error page declares light dark, its stylesheet colouring both", async () => {
    const page = await request(createTestApp().app).get('/_diag/server-error').set(DIAG).expect(500);
    expect(page.text.match(META)).toEqual(['<meta name="color-scheme" content="light dark"/>']);
    expect(page.text).toContain('@media (prefers-color-scheme:dark)');
  });
});
