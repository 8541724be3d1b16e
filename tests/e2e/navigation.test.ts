import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NAVIGATION_TIMEOUT_MS } from '../../client/router/navigation.ts';
import { MAX_PREFETCHES_IN_FLIGHT, PREFETCH_STALE_MS } from '../../client/router/prefetch.ts';
import { clientErrorMessage, serverErrorMessage } from '../../shared/messages.ts';
import { launchBrowser, openPage } from '../support/browser.ts';
import { createTestApp, DIAG, type TestApp } from '../support/test-app.ts';

/** Counts the navigation-data requests the server is answering at once. */
function countingServer(host: TestApp) {
  const stats = { inFlight: 0, maxInFlight: 0, byPath: new Map<string, number>(), finished: new Map<string, number>() };
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/_data/')) {
      const path = req.url.split('?')[0]!;
      stats.byPath.set(path, (stats.byPath.get(path) ?? 0) + 1);
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      res.on('close', () => {
        stats.inFlight--;
        stats.finished.set(path, (stats.finished.get(path) ?? 0) + 1);
      });
    }
    host.app(req, res);
  });
  return { server, stats };
}

/** Requests the page makes, so a test can tell a document load from a data fetch. */
function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return requests;
}
const documentLoads = (requests: Request[]) => requests.filter((r) => r.isNavigationRequest() && r.resourceType() === 'document');
const dataFetches = (requests: Request[], path = '') => requests.filter((r) => new URL(r.url()).pathname.startsWith(`/_data${path}`));

describe('client navigation in a real browser', () => {
  let browser: Browser;
  let host: TestApp;
  let origin: string;
  let counting: ReturnType<typeof countingServer>;
  beforeAll(async () => {
    host = createTestApp();
    counting = countingServer(host);
    await new Promise<void>((resolve) => counting.server.listen(0, '127.0.0.1', resolve));
    origin = `http://localhost:${(counting.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    counting.server.closeAllConnections();
    await new Promise((resolve) => counting.server.close(resolve));
  });

  /** A page at `path`, hydrated; `clock` puts its clock under the test's control from the start. */
  async function hydrated(path: string, viewport = { width: 1280, height: 900 }, clock = false) {
    const opened = await openPage(browser, DIAG);
    await opened.page.setViewportSize(viewport);
    if (clock) await opened.page.clock.install();
    const requests = recordRequests(opened.page);
    await opened.page.goto(`${origin}${path}`);
    await opened.page.waitForSelector('html[data-hydrated="true"]');
    return { ...opened, requests };
  }

  it('hydrates with the loader data in the page: no data request, and the streamed part arrives', async () => {
    const { page, console, requests, close } = await hydrated('/guide/streaming', { width: 1280, height: 300 });
    await page.getByTestId('related').waitFor();
    // Links below the fold are not prefetched, so any data request would be a refetch.
    expect(dataFetches(requests, '/guide/streaming')).toEqual([]);
    expect(console.filter((entry) => entry.type === 'error' || entry.type === 'pageerror')).toEqual([]);
    await close();
  });

  it('navigates without a document load, moves focus to the content and announces the title', async () => {
    const { page, console, requests, close } = await hydrated('/guide/streaming');
    await page.evaluate(() => ((window as unknown as Record<string, number>).sameDocument = 1));
    await page.getByRole('link', { name: 'Failures' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Failures' }).waitFor();
    expect(await page.title()).toBe('Failures · Guide');
    expect(await page.evaluate(() => (window as unknown as Record<string, number>).sameDocument)).toBe(1);
    expect(documentLoads(requests)).toHaveLength(1);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('content');
    expect(await page.getByTestId('route-announcer').textContent()).toBe('Failures · Guide');
    await page.getByTestId('related').waitFor();
    expect(console.filter((entry) => entry.type === 'error' || entry.type === 'pageerror')).toEqual([]);
    await close();
  });

  it('back restores the scroll position of the previous page', async () => {
    const { page, close } = await hydrated('/', { width: 375, height: 400 });
    const link = page.getByRole('link', { name: 'how the guide pages load' });
    await link.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    // The reader stays a moment on the next page: the header's link to / is prefetched there,
    // its streamed part included.
    const homeAnswered = counting.stats.finished.get('/_data/') ?? 0;
    await link.click();
    await page.getByRole('heading', { level: 1, name: 'Streaming' }).waitFor();
    await vi.waitFor(() => expect(counting.stats.finished.get('/_data/')).toBe(homeAnswered + 1));
    await page.goBack();
    await page.getByTestId('counter').waitFor();
    await vi.waitFor(async () => expect(await page.evaluate(() => window.scrollY)).toBe(scrolled));
    await close();
  });

  it('leaves modified clicks to the browser: ctrl-click opens a new tab, this one stays', async () => {
    const { page, requests, close } = await hydrated('/guide/streaming');
    const opened = page.context().waitForEvent('page');
    await page
      .getByRole('link', { name: 'Navigation' })
      .first()
      .click({ modifiers: ['Control'] });
    const tab = await opened;
    expect(new URL(tab.url() === 'about:blank' ? (await tab.waitForEvent('framenavigated')).url() : tab.url()).pathname).toBe(
      '/guide/navigation',
    );
    expect(new URL(page.url()).pathname).toBe('/guide/streaming');
    expect(documentLoads(requests)).toHaveLength(1);
    await close();
  });

  it(`never has more than ${MAX_PREFETCHES_IN_FLIGHT} prefetches in flight for a page of 12 visible links, and fetches each once`, async () => {
    counting.stats.maxInFlight = 0;
    const { close } = await hydrated('/_diag/links?count=12&ms=400', { width: 1280, height: 2000 });
    await vi.waitFor(() => expect(counting.stats.byPath.get('/_data/_diag/slow-loader')).toBe(12), { timeout: 10_000 });
    await vi.waitFor(() => expect(counting.stats.inFlight).toBe(0));
    expect(counting.stats.maxInFlight).toBe(MAX_PREFETCHES_IN_FLIGHT);
    await close();
  });

  it(`gives up on a navigation after ${NAVIGATION_TIMEOUT_MS} ms and loads the document instead`, async () => {
    const { page, requests, close } = await hydrated('/_diag/links?count=1&ms=4000', undefined, true);
    await page.getByRole('link', { name: 'Slow page 1' }).click();
    await page.clock.runFor(NAVIGATION_TIMEOUT_MS - 200);
    expect(documentLoads(requests)).toHaveLength(1);
    const documentLoad = page.waitForRequest((r) => r.isNavigationRequest() && r.url().includes('/_diag/slow-loader'));
    await page.clock.runFor(400);
    expect(new URL((await documentLoad).url()).search).toBe('?ms=4000&n=1');
    await close();
  });

  it('a navigation given up for another never falls back to a document load later', async () => {
    const { page, requests, close } = await hydrated('/_diag/links?count=1&ms=4000', undefined, true);
    await page.getByRole('link', { name: 'Slow page 1' }).click();
    await page.clock.runFor(1_000);
    await page.getByRole('link', { name: 'Loader error' }).click();
    await page.locator('section[role="alert"]').waitFor();
    await page.clock.runFor(NAVIGATION_TIMEOUT_MS);
    expect(documentLoads(requests)).toHaveLength(1);
    expect(new URL(page.url()).pathname).toBe('/_diag/loader-error');
    await close();
  });

  it(`uses a fresh prefetch for a navigation, and fetches again once it is older than ${PREFETCH_STALE_MS / 1000} s`, async () => {
    const { page, requests, close } = await hydrated('/guide/streaming', undefined, true);
    const failures = () => dataFetches(requests, '/guide/failures').length;
    await vi.waitFor(() => expect(failures()).toBe(1)); // the visible tab was prefetched
    await page.getByRole('link', { name: 'Failures' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Failures' }).waitFor();
    expect(failures()).toBe(1);
    await page.getByRole('link', { name: 'Streaming' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Streaming' }).waitFor();
    await page.clock.fastForward(PREFETCH_STALE_MS + 1_000);
    await page.getByRole('link', { name: 'Failures' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Failures' }).waitFor();
    expect(failures()).toBe(2);
    await close();
  });

  it('a navigation whose data request fails as a request loads the document instead', async () => {
    const { page, close } = await openPage(browser, DIAG);
    // As if the server were unreachable for that page's data (its prefetch fails the same way).
    await page.route('**/_data/guide/navigation*', (route) => route.abort('connectionrefused'));
    const requests = recordRequests(page);
    await page.goto(`${origin}/guide/streaming`);
    await page.waitForSelector('html[data-hydrated="true"]');
    const documentLoad = page.waitForRequest((r) => r.isNavigationRequest() && new URL(r.url()).pathname === '/guide/navigation');
    await page.getByRole('link', { name: 'Navigation' }).first().click();
    await documentLoad;
    await page.getByRole('heading', { level: 1, name: 'Navigation' }).waitFor();
    expect(documentLoads(requests)).toHaveLength(2);
    await close();
  });

  it('a render failure in the browser shows the route’s boundary with the client-side text and the digest it reported', async () => {
    const { page, close } = await hydrated('/_diag/client-error-in-boundary');
    const boundary = page.locator('section[role="alert"]');
    await boundary.waitFor();
    expect(await boundary.innerText()).toContain(clientErrorMessage('localhost'));
    const digest = await boundary.locator('code[data-digest]').innerText();
    expect(digest).toMatch(/^c-[0-9a-z]+$/);
    expect(await page.getByTestId('diag-layout').isVisible()).toBe(true);
    const report = await host.logs.waitFor((line) => line.msg === 'client error' && line.digest === digest);
    expect(report).toMatchObject({ side: 'client', kind: 'caught', path: '/_diag/client-error-in-boundary' });
    await close();
  });

  it('a loader failure during navigation shows the route’s boundary inside the layout, with the digest it logged once', async () => {
    const { page, requests, close } = await hydrated('/_diag/links?count=0');
    // The same failure has one digest on every request: count only this navigation's lines.
    const before = host.logs.failures().length;
    await page.getByRole('link', { name: 'Loader error' }).click();
    const boundary = page.locator('section[role="alert"]');
    await boundary.waitFor();
    expect(await boundary.innerText()).toContain(serverErrorMessage('localhost'));
    const digest = await boundary.locator('code[data-digest]').innerText();
    expect(await page.getByTestId('diag-layout').isVisible()).toBe(true);
    expect(documentLoads(requests)).toHaveLength(1);
    const lines = host.logs
      .failures()
      .slice(before)
      .filter((line) => line.digest === digest);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ status: 500, route: 'data:diag-loader-error' });
    await close();
  });
});
