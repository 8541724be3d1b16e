import { describe, expect, it, vi } from 'vitest';
import { NAVIGATION_TIMEOUT_MS } from '../../client/router/browser/document-load.ts';
import { PREFETCH_STALE_MS } from '../../client/router/browser/prefetch.ts';
import { clientErrorMessage, serverErrorMessage } from '../../shared/messages.ts';
import { dataFetches, documentLoads, navigationSuite, recordRequests } from './navigation-harness.ts';
import { DIAG } from '../support/test-app.ts';
import { openPage } from '../support/browser.ts';

describe('client navigation in a real browser: timeouts, stale prefetches and failures', () => {
  const nav = navigationSuite();

  it(`gives up on a navigation after ${NAVIGATION_TIMEOUT_MS} ms and loads the document instead`, async () => {
    const { page, requests, close } = await nav.hydrated('/_diag/links?count=1&ms=4000', undefined, true);
    await page.getByRole('link', { name: 'Slow page 1' }).click();
    await page.clock.runFor(NAVIGATION_TIMEOUT_MS - 200);
    expect(documentLoads(requests)).toHaveLength(1);
    const documentLoad = page.waitForRequest((r) => r.isNavigationRequest() && r.url().includes('/_diag/slow-loader'));
    await page.clock.runFor(400);
    expect(new URL((await documentLoad).url()).search).toBe('?ms=4000&n=1');
    await close();
  });

  it('a navigation given up for another never falls back to a document load later', async () => {
    const { page, requests, close } = await nav.hydrated('/_diag/links?count=1&ms=4000', undefined, true);
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
    const { page, requests, close } = await nav.hydrated('/guide/streaming', undefined, true);
    const failures = () => dataFetches(requests, '/guide/failures').length;
    await page.getByRole('link', { name: 'Failures' }).first().hover();
    await vi.waitFor(() => expect(failures()).toBe(1)); // the tab under the pointer was prefetched
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
    const { page, close } = await openPage(nav.browser, DIAG);
    // As if the server were unreachable for that page's data (its prefetch fails the same way).
    await page.route('**/_data/guide/navigation*', (route) => route.abort('connectionrefused'));
    const requests = recordRequests(page);
    await page.goto(`${nav.origin}/guide/streaming`);
    await page.waitForSelector('html[data-hydrated="true"]');
    const documentLoad = page.waitForRequest((r) => r.isNavigationRequest() && new URL(r.url()).pathname === '/guide/navigation');
    await page.getByRole('link', { name: 'Navigation' }).first().click();
    await documentLoad;
    await page.getByRole('heading', { level: 1, name: 'Navigation' }).waitFor();
    expect(documentLoads(requests)).toHaveLength(2);
    await close();
  });

  it('a render failure in the nav.browser shows the route’s boundary with the client-side text and the digest it reported', async () => {
    const { page, close } = await nav.hydrated('/_diag/client-error-in-boundary');
    const boundary = page.locator('section[role="alert"]');
    await boundary.waitFor();
    expect(await boundary.innerText()).toContain(clientErrorMessage('localhost'));
    const digest = await boundary.locator('code[data-digest]').innerText();
    expect(digest).toMatch(/^c-[0-9a-z]+$/);
    expect(await page.getByTestId('diag-layout').isVisible()).toBe(true);
    const report = await nav.host.logs.waitFor((line) => line.msg === 'client error' && line.digest === digest);
    expect(report).toMatchObject({ side: 'client', kind: 'caught', path: '/_diag/client-error-in-boundary' });
    await close();
  });

  it('a loader failure during navigation shows the route’s boundary inside the layout, with the digest it logged once', async () => {
    const { page, requests, close } = await nav.hydrated('/_diag/links?count=0');
    // The same failure has one digest on every request: count only this navigation's lines.
    const before = nav.host.logs.failures().length;
    await page.getByRole('link', { name: 'Loader error' }).click();
    const boundary = page.locator('section[role="alert"]');
    await boundary.waitFor();
    expect(await boundary.innerText()).toContain(serverErrorMessage('localhost'));
    const digest = await boundary.locator('code[data-digest]').innerText();
    expect(await page.getByTestId('diag-layout').isVisible()).toBe(true);
    expect(documentLoads(requests)).toHaveLength(1);
    const lines = nav.host.logs
      .failures()
      .slice(before)
      .filter((line) => line.digest === digest);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ status: 500, route: 'data:diag-loader-error' });
    await close();
  });
});
