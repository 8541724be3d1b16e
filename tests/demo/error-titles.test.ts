import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/test-app.ts';

// The demo's pages that show a failure are titled as the host's own error pages are (its root's
// meta, client/root.tsx): a page without a <title> fails Lighthouse's accessibility audit.

describe("the demo's error pages", () => {
  const demo = () => createTestApp({}, {}, { app: 'demo' }).app;

  it('titles a path no route matches', async () => {
    const res = await request(demo()).get('/no-such-page').expect(404);
    expect(res.text).toContain('<title>404: This page could not be found.</title>');
  });

  it("titles a failure the site's layout shows in its boundary", async () => {
    const res = await request(demo()).get('/guestbook/entries/no-such-entry').expect(404);
    expect(res.text).toMatch(/<title>[^<]+<\/title>/);
  });
});
