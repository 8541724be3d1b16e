import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { CRAWLER_UA } from '../../tools/harness/user-agents.ts';
import { createTestApp } from '../support/test-app.ts';

// The demo declares its colour scheme itself, in its stylesheet (client/styles.css): the host
// declares none in an app's document (tests/pages/document-color-scheme.test.ts).

describe("the demo's colour scheme", () => {
  it('is light dark, in the stylesheet every page links, with no meta from the host', async () => {
    const { app } = createTestApp({}, {}, { app: 'demo' });
    for (const path of ['/', '/about', '/guestbook']) {
      const page = await request(app).get(path).set('user-agent', CRAWLER_UA).expect(200);
      expect(page.text.match(/<meta name="color-scheme"[^>]*>/g), path).toBeNull();
      // The demo's built stylesheets, linked by the page (client/root.tsx's links).
      const sheets = [...page.text.matchAll(/<link[^>]* rel="stylesheet" href="([^"]+)"/g)].map((match) => match[1]!);
      const texts = await Promise.all(sheets.map(async (href) => (await request(app).get(href).expect(200)).text));
      expect(texts.join('\n'), path).toMatch(/:root\s*\{[^}]*color-scheme:\s*light dark/);
    }
  });
});
