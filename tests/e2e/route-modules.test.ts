import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DIAG } from '../support/test-app.ts';
import { dataFetches, documentLoads, navigationSuite } from './navigation-harness.ts';

// Route modules in a real browser: a middleware guard on a client navigation, a form posting to
// a resource route with JavaScript on and off, and a route's own ErrorBoundary after hydration
// (the fixture's members and notes pages: tests/apps/host/app/routes/).

const errorsOf = (console: { type: string; text: string }[]) => console.filter((e) => e.type === 'error' || e.type === 'pageerror');

async function signIn(page: Page, name: string) {
  await page.getByLabel('Name').fill(name);
  await page.getByTestId('sign-in').click();
  await page.getByTestId('signed-in-as').filter({ hasText: name }).waitFor();
}

describe('route modules in a real browser', () => {
  const nav = navigationSuite();

  it('a guarded page reached by a link without a session lands on sign-in, with no document load', async () => {
    const { page, console, requests, close } = await nav.hydrated('/notes');
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/members/sign-in');
    expect(documentLoads(requests)).toHaveLength(1);
    // The guard answered the navigation's data request with a redirect.
    expect(dataFetches(requests, '/members')).toHaveLength(1);
    expect(errorsOf(console)).toEqual([]);
    await close();
  });

  it('signs in, then signs out through a form posting to the resource route: its redirect is followed, no document load', async () => {
    const { page, console, requests, close } = await nav.hydrated('/members/sign-in');
    await signIn(page, 'Ada with JS');
    await page.getByTestId('sign-out').click();
    await page.getByRole('heading', { level: 1, name: 'Notes' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/notes');
    expect(documentLoads(requests)).toHaveLength(1);
    expect(requests.filter((r) => new URL(r.url()).pathname.startsWith('/members/sign-out')).map((r) => r.method())).toEqual(['POST']);
    // Signed out: the guard sends the next visit to sign in.
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(errorsOf(console)).toEqual([]);
    await close();
  });

  it('without JavaScript the same forms post as documents: sign-in 303 to the guarded page, sign-out 303 to the notes', async () => {
    const context = await nav.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${nav.origin}/members/sign-in`);
    await signIn(page, 'Ada without JS');
    await page.getByTestId('sign-out').click();
    await page.getByRole('heading', { level: 1, name: 'Notes' }).waitFor();
    const response = await page.goto(`${nav.origin}/members`);
    expect(new URL(page.url()).pathname).toBe('/members/sign-in');
    // The guard's own redirect, not a page that sent the browser on.
    expect(new URL(response!.request().redirectedFrom()!.url()).pathname).toBe('/members');
    await context.close();
  });

  it('an unknown note shows the route’s own “No such note” inside the site’s header, and hydrates without an error', async () => {
    const { page, console, close } = await nav.hydrated('/notes/999999');
    expect(await page.getByTestId('note-missing').locator('h1').textContent()).toBe('No such note');
    expect(await page.getByTestId('site-header').count()).toBe(1);
    expect(errorsOf(console).filter((e) => !e.text.includes('404'))).toEqual([]);
    await close();
  });

  it('a clientLoader that runs at hydration: the server sent its HydrateFallback, the browser shows its data with no second request; clientAction and client middleware run', async () => {
    const html = await (await fetch(`${nav.origin}/_diag/client-data`, { headers: DIAG })).text();
    expect(html).toContain('data-testid="hydrate-fallback"');
    expect(html).not.toContain('data-testid="client-data"');
    const { page, console, requests, close } = await nav.hydrated('/_diag/client-data');
    await expect
      .poll(() => page.getByTestId('client-data').textContent())
      .toBe('data from the server; the clientLoader ran; client middleware ran');
    // serverLoader() at hydration answers with the data the page carries.
    expect(dataFetches(requests, '/_diag/client-data')).toHaveLength(0);
    await page.getByTestId('client-post').click();
    await expect.poll(() => page.getByTestId('client-action').textContent()).toBe('the server action ran; the clientAction ran');
    expect(dataFetches(requests, '/_diag/client-data').map((r) => r.method())[0]).toBe('POST');
    expect(documentLoads(requests)).toHaveLength(1);
    expect(errorsOf(console)).toEqual([]);
    await close();
  });
});
