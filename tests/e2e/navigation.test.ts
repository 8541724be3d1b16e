import { describe, expect, it, vi } from 'vitest';
import { dataFetches, documentLoads, navigationSuite } from './navigation-harness.ts';

// Client navigation through React Router in a real browser, on the fixture app's pages.

describe('client navigation in a real browser', () => {
  const nav = navigationSuite();

  it('hydrates with the loader data in the page: no data request, and the streamed part arrives', async () => {
    const { page, console, requests, close } = await nav.hydrated('/');
    await page.getByTestId('streamed-content').waitFor();
    expect(dataFetches(requests)).toEqual([]);
    expect(console.filter((entry) => entry.type === 'error' || entry.type === 'pageerror')).toEqual([]);
    await close();
  });

  it('navigates without a document load, its streamed part included, and the title from the page’s meta', async () => {
    const { page, console, requests, close } = await nav.hydrated('/');
    await page.evaluate(() => ((window as unknown as Record<string, number>).sameDocument = 1));
    await page.getByRole('link', { name: 'Fixture page' }).click();
    await page.getByTestId('fixture').filter({ hasText: 'Hello from the fixture, linked' }).waitFor();
    await page.getByText('LATER-PART-ARRIVED').waitFor();
    expect(await page.title()).toBe('Fixture page');
    expect(await page.evaluate(() => (window as unknown as Record<string, number>).sameDocument)).toBe(1);
    expect(documentLoads(requests)).toHaveLength(1);
    expect(dataFetches(requests, '/fixture/linked')).toHaveLength(1);
    expect(console.filter((entry) => entry.type === 'error' || entry.type === 'pageerror')).toEqual([]);
    await close();
  });

  it('after a client navigation moves focus to the new content and announces its title; the first load announces nothing', async () => {
    const { page, close } = await nav.hydrated('/');
    expect(await page.getByTestId('route-announcer').textContent()).toBe('');
    await page.getByRole('link', { name: 'Fixture page' }).click();
    await page.getByTestId('fixture').filter({ hasText: 'Hello from the fixture, linked' }).waitFor();
    await expect.poll(() => page.getByTestId('route-announcer').textContent()).toBe('Fixture page');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('content');
    // Seen by a screen reader, not by the eye.
    expect(await page.getByTestId('route-announcer').boundingBox()).toMatchObject({ width: 1, height: 1 });
    await close();
  });

  it('back restores the scroll position of the previous page', async () => {
    const { page, close } = await nav.hydrated('/_diag/links?count=50&ms=0', { width: 375, height: 400 });
    const link = page.getByRole('link', { name: 'Slow page 50' });
    await link.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    await link.click();
    await page.getByText('The loader took 0 ms.').waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Diagnostic: links' }).waitFor();
    await vi.waitFor(async () => expect(await page.evaluate(() => window.scrollY)).toBe(scrolled));
    await close();
  });

  it('leaves modified clicks to the browser: ctrl-click opens a new tab, this one stays', async () => {
    const { page, requests, close } = await nav.hydrated('/');
    const opened = page.context().waitForEvent('page');
    await page.getByRole('link', { name: 'Fixture page' }).click({ modifiers: ['Control'] });
    const tab = await opened;
    expect(new URL(tab.url() === 'about:blank' ? (await tab.waitForEvent('framenavigated')).url() : tab.url()).pathname).toBe(
      '/fixture/linked',
    );
    expect(new URL(page.url()).pathname).toBe('/');
    expect(documentLoads(requests)).toHaveLength(1);
    await close();
  });

  it('a page of 12 links prefetched in view fetches each page’s data once, before any click, and the host answers each', async () => {
    const answered = () => nav.counting.stats.finished.get('/_diag/slow-loader') ?? 0;
    const before = answered();
    const { close } = await nav.hydrated('/_diag/links?count=12&ms=400&prefetch=viewport', { width: 1280, height: 2000 });
    await vi.waitFor(() => expect(answered()).toBe(before + 12), { timeout: 10_000 });
    // A prefetch says so (React Router's link: Sec-Purpose), and its answers are no failures.
    expect(nav.host.logs.failures().filter((line) => String(line.path).startsWith('/_diag/slow-loader'))).toEqual([]);
    await close();
  });
});
