import { describe, expect, it } from 'vitest';
import { clientErrorMessage, serverErrorMessage } from '../../shared/messages.ts';
import { documentLoads, navigationSuite, recordRequests } from './navigation-harness.ts';
import { DIAG } from '../support/test-app.ts';
import { openPage } from '../support/browser.ts';

// What a reader sees when a client navigation fails: the server's failure, a failure in the
// browser, a data request that never reaches the server.

describe('client navigation in a real browser: failures', () => {
  const nav = navigationSuite();

  it('a navigation whose data request fails as a request shows the client-side text and a digest inside the layout', async () => {
    const { page, close } = await openPage(nav.browser, DIAG);
    // As if the server were unreachable for that page's data.
    await page.route('**/fixture/linked.data*', (route) => route.abort('connectionrefused'));
    const requests = recordRequests(page);
    await page.goto(`${nav.origin}/`);
    await page.waitForSelector('html[data-hydrated="true"]');
    await page.getByRole('link', { name: 'Fixture page' }).click();
    // The layout's boundary: the site's header stays, the page is the error, no document load.
    const boundary = page.locator('section[role="alert"]');
    await boundary.waitFor();
    expect(await boundary.innerText()).toContain(clientErrorMessage('localhost'));
    expect(await boundary.locator('code[data-digest]').innerText()).toMatch(/^c-[0-9a-z]+$/);
    expect(await page.getByTestId('site-header').count()).toBe(1);
    expect(documentLoads(requests)).toHaveLength(1);
    await close();
  });

  it('a render failure in the browser shows the route’s boundary with the client-side text and the digest it reported', async () => {
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
    expect(lines[0]).toMatchObject({ status: 500, route: 'data:diag/loader-error' });
    await close();
  });
});
