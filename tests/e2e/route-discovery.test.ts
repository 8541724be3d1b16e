import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/browser.ts';
import { DIAG } from '../support/test-app.ts';
import { documentLoads, navigationSuite, recordRequests } from './navigation-harness.ts';

// The browser learns the route table as it goes (React Router's lazy route discovery:
// https://reactrouter.com/explanation/lazy-route-discovery): a page carries only its own routes,
// the routes of its links are asked for through the host's handler (/__manifest), and a page of
// an older release is sent to the new one's document.

/** React Router's discovery requests, or those that asked for `path`. */
const discoveries = (requests: Request[], path?: string) =>
  requests.filter((r) => {
    const url = new URL(r.url());
    return url.pathname === '/__manifest' && (path === undefined || (url.searchParams.get('paths') ?? '').split(',').includes(path));
  });
const routeIds = (page: Page) =>
  page.evaluate(() => Object.keys((window as unknown as { __reactRouterManifest: { routes: object } }).__reactRouterManifest.routes));

describe('route discovery in a real browser', () => {
  const nav = navigationSuite();

  it('a page names only its own routes; its links are learnt through the host, and followed with no document load', async () => {
    // The document's manifest: the page's own routes, not the board's.
    const html = await (await fetch(`${nav.origin}/`)).text();
    expect(html).toContain('"routes/home"');
    expect(html).not.toContain('"routes/board"');
    const { page, requests, console, close } = await nav.hydrated('/');
    await expect.poll(() => discoveries(requests, '/board').length).toBe(1);
    expect(await routeIds(page)).toContain('routes/board');
    await page.getByRole('link', { name: 'Board' }).click();
    await page.getByRole('heading', { level: 1, name: 'Board' }).waitFor();
    expect(documentLoads(requests)).toHaveLength(1);
    expect(console.filter((entry) => entry.type === 'error' || entry.type === 'pageerror')).toEqual([]);
    await close();
  });

  it("a page of another release, asking for a route it never learnt, loads the new release's document", async () => {
    const { page, close } = await openPage(nav.browser, DIAG);
    // As after a deploy: the page asks with the version it was built with, not the server's.
    await page.route('**/__manifest?*', (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('version', 'an-older-release');
      return route.continue({ url: url.href });
    });
    const requests = recordRequests(page);
    await page.goto(`${nav.origin}/`);
    await page.waitForSelector('html[data-hydrated="true"]');
    const documentLoad = page.waitForRequest((r) => r.isNavigationRequest() && new URL(r.url()).pathname === '/board');
    await page.getByRole('link', { name: 'Board' }).click();
    await documentLoad;
    await page.getByRole('heading', { level: 1, name: 'Board' }).waitFor();
    expect(documentLoads(requests)).toHaveLength(2);
    await close();
  });
});
