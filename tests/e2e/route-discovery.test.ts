import type { Page, Request } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { NAVIGATION_TIMEOUT_MS } from '../../client/router/browser/document-load.ts';
import { DISCOVERY_PATH, PATHS_PARAM } from '../../shared/route-discovery.ts';
import type { RuntimeConfig } from '../../shared/runtime.ts';
import { openPage } from '../support/browser.ts';
import { DIAG } from '../support/test-app.ts';
import { documentLoads, navigationSuite, recordRequests } from './navigation-harness.ts';

// The browser learns the route table a branch at a time (shared/route-discovery.ts): a page
// names only its own routes, and a link's routes are asked for when it is prefetched or, if it
// was not, when it is followed. A path without a page, or an answer that does not come, ends
// in a document load: the server answers.

/** Discovery requests that asked for `path` (on its own, or in a batch), or all of them. */
const discoveries = (requests: Request[], path = '') =>
  requests.filter((r) => {
    const url = new URL(r.url());
    if (url.pathname === DISCOVERY_PATH) return path === '' || url.searchParams.getAll(PATHS_PARAM).includes(path);
    return url.pathname === `${DISCOVERY_PATH}${path}` || (path === '' && url.pathname.startsWith(`${DISCOVERY_PATH}/`));
  });
const routeIds = (page: Page) =>
  page.evaluate(() => (window as unknown as { __REACT_SSR_HOST__: RuntimeConfig }).__REACT_SSR_HOST__.router.routes.map((r) => r.id));

describe('route discovery in a real browser', () => {
  const nav = navigationSuite();

  /** A hydrated page that prefetches nothing (the user asked to save data): every link is undiscovered. */
  async function withoutPrefetch(path: string, clock = false) {
    const opened = await openPage(nav.browser, DIAG);
    await opened.page.addInitScript(() => Object.defineProperty(navigator, 'connection', { value: { saveData: true } }));
    if (clock) await opened.page.clock.install();
    const requests = recordRequests(opened.page);
    await opened.page.goto(`${nav.origin}${path}`);
    await opened.page.waitForSelector('html[data-hydrated="true"]');
    return { ...opened, requests };
  }

  it('a page names only its own routes; a link it never prefetched is learnt on the click, with no document load, back and forward too', async () => {
    const { page, requests, console, close } = await withoutPrefetch('/');
    expect(await routeIds(page)).toEqual(['site', 'home']);
    expect(discoveries(requests)).toHaveLength(0);
    await page.getByRole('link', { name: 'how the guide pages load' }).click();
    await page.getByRole('heading', { level: 1, name: 'Streaming' }).waitFor();
    // The title comes from the Guide page's own meta export, learnt with its module.
    await vi.waitFor(async () => expect(await page.title()).toBe('Streaming · Guide'));
    expect(discoveries(requests, '/guide/streaming')).toHaveLength(1);
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'react-ssr-host' }).waitFor();
    await page.goForward();
    await page.getByRole('heading', { level: 1, name: 'Streaming' }).waitFor();
    expect(discoveries(requests)).toHaveLength(1);
    expect(documentLoads(requests)).toHaveLength(1);
    expect(console.filter((entry) => entry.type === 'error' || entry.type === 'pageerror')).toEqual([]);
    await close();
  });

  it("asks once per path: the document's own path, a dynamic one, is not asked for on the way back", async () => {
    const { page, requests, close } = await withoutPrefetch('/guide/streaming');
    await page.getByRole('link', { name: 'Failures' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Failures' }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Streaming' }).waitFor();
    expect(discoveries(requests).map((r) => new URL(r.url()).pathname)).toEqual([`${DISCOVERY_PATH}/guide/failures`]);
    await close();
  });

  it("a link in view is learnt before it is clicked, so the click asks for nothing but the page's data", async () => {
    const { page, requests, close } = await nav.hydrated('/');
    await vi.waitFor(() => expect(discoveries(requests, '/guestbook')).toHaveLength(1));
    await page.getByRole('link', { name: 'Guestbook' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Guestbook' }).waitFor();
    expect(discoveries(requests, '/guestbook')).toHaveLength(1);
    expect(documentLoads(requests)).toHaveLength(1);
    await close();
  });

  it('a route learnt for one page serves the next: a child under a layout the page already has', async () => {
    const { page, requests, close } = await withoutPrefetch('/_diag/links?count=0');
    expect(await routeIds(page)).toEqual(['diag', 'diag-links']);
    await page.getByRole('link', { name: 'Loader error' }).click();
    await page.locator('section[role="alert"]').getByText('Digest:').waitFor();
    expect(await page.getByTestId('diag-layout').count()).toBe(1);
    expect(discoveries(requests, '/_diag/loader-error')).toHaveLength(1);
    expect(documentLoads(requests)).toHaveLength(1);
    await close();
  });

  it('a path the server has no page for (a resource route) becomes a document load, query kept', async () => {
    const { page, requests, close } = await withoutPrefetch('/');
    const documentLoad = page.waitForRequest((r) => r.isNavigationRequest() && new URL(r.url()).pathname === '/api/guestbook');
    // A history entry the router has no route for, as after a back to it.
    await page.evaluate(() => {
      history.pushState(null, '', '/api/guestbook?limit=1');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(new URL((await documentLoad).url()).search).toBe('?limit=1');
    expect(discoveries(requests, '/api/guestbook')).toHaveLength(1);
    await close();
  });

  it("an answer for another release's page loads the document of the new one", async () => {
    const { page, close } = await withoutPrefetch('/');
    await page.route(`**${DISCOVERY_PATH}/**`, (route) => route.fulfill({ status: 409, contentType: 'application/json', body: '{}' }));
    const documentLoad = page.waitForRequest((r) => r.isNavigationRequest() && new URL(r.url()).pathname === '/guide/streaming');
    await page.getByRole('link', { name: 'how the guide pages load' }).click();
    await documentLoad;
    await close();
  });

  it(`an answer that has not come in ${NAVIGATION_TIMEOUT_MS} ms gives way to a document load`, async () => {
    const { page, requests, close } = await withoutPrefetch('/', true);
    await page.route(`**${DISCOVERY_PATH}/**`, () => {}); // never answered
    await page.getByRole('link', { name: 'how the guide pages load' }).click();
    await page.clock.runFor(NAVIGATION_TIMEOUT_MS - 200);
    expect(documentLoads(requests)).toHaveLength(1);
    const documentLoad = page.waitForRequest((r) => r.isNavigationRequest() && new URL(r.url()).pathname === '/guide/streaming');
    await page.clock.runFor(400);
    await documentLoad;
    await close();
  });
});
