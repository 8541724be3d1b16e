import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverErrorMessage } from '../../shared/messages.ts';
import { MANIFEST_FILE, PRERENDER_DIR, type PrerenderManifest } from '../../server/pages/prerender-manifest.ts';
import { closeContexts, openPage, sharedBrowser } from '../support/browser.ts';
import { appBuild, createTestApp, DIAG, type TestApp } from '../support/test-app.ts';
import { documentLoads, recordRequests } from './navigation-harness.ts';

// A page prerendered at build (docs/caching.md, "Prerendered pages"; the fixture's /prerendered/fine) in Chromium: it hydrates and
// runs its inline scripts under the hash-based CSP it is served with, and the router navigates to
// and from it without a document load. The app serves the build's files in this process (the
// built server's own reading of them: tests/pages/prerendered-pages.test.ts).

declare global {
  interface Window {
    cspViolations?: string[];
  }
}

describe('a prerendered page in a real browser', () => {
  let host: TestApp;
  let origin: string;
  beforeAll(async () => {
    const dir = join(appBuild().dir, PRERENDER_DIR);
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as PrerenderManifest;
    host = createTestApp({}, { prerendered: { dir, manifest } });
    origin = (await host.listen()).replace('127.0.0.1', 'localhost');
  });
  afterAll(async () => {
    await closeContexts(await sharedBrowser());
    await host.close();
  });

  it('hydrates under its CSP without a violation, and navigates client-side to and from it', async () => {
    const { page, console, close } = await openPage(await sharedBrowser(), DIAG);
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (event) => (window.cspViolations ??= []).push(event.violatedDirective)),
    );
    const requests = recordRequests(page);
    const data: Response[] = [];
    page.on('response', (response) => new URL(response.url()).pathname.endsWith('.data') && data.push(response));

    const loaded = await page.goto(`${origin}/prerendered/fine`);
    expect(loaded!.headers()['x-cache']).toBe('PRERENDERED');
    expect(loaded!.headers()['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
    await page.waitForSelector('html[data-hydrated="true"]');
    await page.getByRole('heading', { level: 1, name: 'fine' }).waitFor();

    // Away to a page rendered per request, and back: its navigation data is the prerendered file.
    await page.getByRole('link', { name: 'Board' }).click();
    await page.getByRole('heading', { level: 1, name: 'Board' }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'fine' }).waitFor();
    const fine = data.find((response) => new URL(response.url()).pathname === '/prerendered/fine.data');
    expect(fine!.headers()['x-cache']).toBe('PRERENDERED');
    expect(documentLoads(requests)).toHaveLength(1);

    // A server failure shown after a navigation from it names the host the browser used (the page names none).
    await page.evaluate(() => {
      history.pushState(null, '', '/_diag/loader-error');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    const boundary = page.locator('section[role="alert"]');
    await boundary.waitFor();
    expect(await boundary.innerText()).toContain(serverErrorMessage('localhost'));

    expect(await page.evaluate(() => window.cspViolations ?? [])).toEqual([]);
    expect(console.filter((entry) => /Content.Security.Policy|Refused to/i.test(entry.text))).toEqual([]);
    await close();
  });
});
