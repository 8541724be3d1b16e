import { describe, expect, it, vi } from 'vitest';

import { MAX_PREFETCHES_IN_FLIGHT } from '../../client/router/browser/prefetch.ts';

import { dataFetches, documentLoads, navigationSuite } from './navigation-harness.ts';

describe('client navigation in a real browser', () => {
  const nav = navigationSuite();

  it('hydrates with the loader data in the page: no data request, and the streamed part arrives', async () => {
    const { page, console, requests, close } = await nav.hydrated('/guide/streaming', { width: 1280, height: 300 });
    await page.getByTestId('related').waitFor();
    // Links below the fold are not prefetched, so any data request would be a refetch.
    expect(dataFetches(requests, '/guide/streaming')).toEqual([]);
    expect(console.filter((entry) => entry.type === 'error' || entry.type === 'pageerror')).toEqual([]);
    await close();
  });

  it('navigates without a document load, moves focus to the content and announces the title', async () => {
    const { page, console, requests, close } = await nav.hydrated('/guide/streaming');
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
    const { page, close } = await nav.hydrated('/guide/streaming', { width: 375, height: 400 });
    // A related topic, in the streamed section at the foot of the page.
    const link = page.getByTestId('related').getByRole('link', { name: 'failures' });
    await link.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    // The reader stays a moment on the next page, the pointer on its tab back to this one: that
    // prefetches it, the streamed part included.
    const answered = nav.counting.stats.finished.get('/_data/guide/streaming') ?? 0;
    await link.click();
    await page.getByRole('heading', { level: 1, name: 'Failures' }).waitFor();
    await page.getByRole('link', { name: 'Streaming' }).first().hover();
    await vi.waitFor(() => expect(nav.counting.stats.finished.get('/_data/guide/streaming')).toBe(answered + 1));
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Streaming' }).waitFor();
    await vi.waitFor(async () => expect(await page.evaluate(() => window.scrollY)).toBe(scrolled));
    await close();
  });

  it('leaves modified clicks to the nav.browser: ctrl-click opens a new tab, this one stays', async () => {
    const { page, requests, close } = await nav.hydrated('/guide/streaming');
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

  it(`never has more than ${MAX_PREFETCHES_IN_FLIGHT} prefetches in flight for a page of 12 visible links prefetched in view, and fetches each once`, async () => {
    nav.counting.stats.maxInFlight = 0;
    const { close } = await nav.hydrated('/_diag/links?count=12&ms=400&prefetch=viewport', { width: 1280, height: 2000 });
    await vi.waitFor(() => expect(nav.counting.stats.byPath.get('/_data/_diag/slow-loader')).toBe(12), { timeout: 10_000 });
    await vi.waitFor(() => expect(nav.counting.stats.inFlight).toBe(0));
    expect(nav.counting.stats.maxInFlight).toBe(MAX_PREFETCHES_IN_FLIGHT);
    await close();
  });

  it('links in view cost one discovery request and their code and stylesheets, no loader; a hover fetches that page’s data once', async () => {
    const { page, requests, close } = await nav.hydrated('/', { width: 1280, height: 2000 });
    const discoveries = () => requests.filter((r) => new URL(r.url()).pathname.startsWith('/_routes'));
    const fetched = (pattern: RegExp) => requests.some((r) => pattern.test(new URL(r.url()).pathname));
    // The guestbook's code and its stylesheet (fetched, not applied) come after the one batch.
    await vi.waitFor(() => expect(fetched(/^\/assets\/Guestbook-[\w-]+\.js$/) && fetched(/^\/assets\/Guestbook-[\w-]+\.css$/)).toBe(true));
    expect(discoveries().map((r) => new URL(r.url()).pathname)).toEqual(['/_routes']);
    expect(new URL(discoveries()[0]!.url()).searchParams.getAll('p')).toEqual(expect.arrayContaining(['/guestbook', '/guide/streaming']));
    expect(await page.evaluate(() => document.querySelectorAll('link[rel="stylesheet"][href*="Guestbook"]').length)).toBe(0);
    expect(dataFetches(requests)).toEqual([]);
    await page.getByRole('link', { name: 'Guestbook' }).hover();
    await vi.waitFor(() => expect(dataFetches(requests, '/guestbook')).toHaveLength(1));
    expect(dataFetches(requests)).toHaveLength(1);
    expect(discoveries()).toHaveLength(1);
    await close();
  });

  it('a prefetch asks only for the loaders its navigation runs: the layout’s data is not fetched again per link', async () => {
    const { page, requests, close } = await nav.hydrated('/guide/streaming');
    await page.getByRole('link', { name: 'Failures' }).first().hover();
    await page.getByRole('link', { name: 'react-ssr-host' }).first().hover();
    await vi.waitFor(() => expect(dataFetches(requests, '/guide/failures')).toHaveLength(1));
    await vi.waitFor(() => expect(dataFetches(requests).filter((r) => new URL(r.url()).pathname === '/_data/')).toHaveLength(1));
    const asked = dataFetches(requests).map((r) => new URL(r.url()).searchParams.get('_routes'));
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(asked.every((ids) => ids !== null && !ids.split(',').includes('site'))).toBe(true);
    await page.getByRole('link', { name: 'Failures' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Failures' }).waitFor();
    expect(dataFetches(requests, '/guide/failures')).toHaveLength(1);
    await close();
  });
});
