import { describe, expect, it } from 'vitest';
import { pageDigest } from '../../tools/harness/digests.ts';
import { dataFetches, documentLoads, navigationSuite } from './navigation-harness.ts';

// Forms in a real browser, on the fixture's notes page (tests/apps/host/app/routes/notes.tsx):
// <Form> and a fetcher submit for the page's navigation data (/notes.data), no document load.
// The notes are one store per process: each test writes with a name of its own.

const errorsOf = (console: { type: string; text: string }[]) => console.filter((e) => e.type === 'error' || e.type === 'pageerror');

describe('forms in a real browser', () => {
  const nav = navigationSuite();

  it('adding shows a pending state, then the flash and the note, with no document load', async () => {
    const { page, console, requests, close } = await nav.hydrated('/notes');
    // The action's answer is held until the pending state has been seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/notes.data*', async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    await page.getByLabel('Name').fill('Ada in Chromium');
    await page.getByLabel('Message').fill('Added without a reload');
    await page.getByTestId('add').click();
    await expect.poll(() => page.getByTestId('add').textContent()).toBe('Adding…');
    expect(await page.locator('form.notes-form').getAttribute('aria-busy')).toBe('true');
    release();
    await page.getByTestId('flash').filter({ hasText: 'Thanks, Ada in Chromium' }).waitFor();
    expect(await page.getByTestId('notes').textContent()).toContain('Added without a reload');
    expect(await page.getByLabel('Name').inputValue()).toBe('');
    expect(documentLoads(requests)).toHaveLength(1);
    // The post, then the page's data again after its redirect.
    expect(dataFetches(requests, '/notes').map((r) => r.method())).toEqual(['POST', 'GET']);
    expect(errorsOf(console)).toEqual([]);
    await close();
  });

  it('an invalid post shows the messages beside the fields and keeps what was typed', async () => {
    const { page, console, requests, close } = await nav.hydrated('/notes');
    // The browser's own checks would stop the post first: switched off, the server's answer shows.
    await page.locator('form.notes-form').evaluate((form: HTMLFormElement) => (form.noValidate = true));
    await page.getByLabel('Name').fill('Grace');
    await page.getByTestId('add').click();
    await expect.poll(() => page.getByTestId('message-error').textContent()).toBe('Please write a message.');
    expect(await page.getByLabel('Name').inputValue()).toBe('Grace');
    expect(await page.getByLabel('Message').getAttribute('aria-invalid')).toBe('true');
    expect(documentLoads(requests)).toHaveLength(1);
    // The 422 is the form's answer, not an error: nothing on the console.
    expect(errorsOf(console).filter((e) => !e.text.includes('422'))).toEqual([]);
    await close();
  });

  it('deletes through a fetcher: the note goes, the page stays, back and forward still work', async () => {
    const { page, console, requests, close } = await nav.hydrated('/members/sign-in');
    await page.getByRole('link', { name: 'Notes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Notes' }).waitFor();
    await page.getByLabel('Name').fill('Lin to delete');
    await page.getByLabel('Message').fill('Short-lived');
    await page.getByTestId('add').click();
    await page.getByTestId('flash').filter({ hasText: 'Thanks, Lin to delete' }).waitFor();
    await page.getByRole('button', { name: 'Delete the note of Lin to delete' }).click();
    await expect.poll(() => page.getByTestId('notes').textContent()).not.toContain('Short-lived');
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.goForward();
    await page.getByRole('heading', { level: 1, name: 'Notes' }).waitFor();
    expect(await page.getByTestId('notes').textContent()).not.toContain('Short-lived');
    expect(documentLoads(requests)).toHaveLength(1);
    expect(errorsOf(console)).toEqual([]);
    await close();
  });

  it('revalidate() always asks the server, even with a fresh prefetch of the page', async () => {
    const { page, close } = await nav.hydrated('/members/sign-in');
    const answered = () => nav.counting.stats.finished.get('/notes') ?? 0;
    const before = answered();
    // The link prefetches the page's data when the pointer rests on it (React Router's prefetch="intent").
    await page.getByRole('link', { name: 'Notes' }).hover();
    await expect.poll(answered).toBe(before + 1);
    await page.getByRole('link', { name: 'Notes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Notes' }).waitFor();
    const navigated = answered();
    for (const expected of [navigated + 1, navigated + 2]) {
      await page.getByTestId('refresh').click();
      await expect.poll(answered).toBe(expected);
      await expect.poll(() => page.getByTestId('refresh').textContent()).toBe('Refresh');
    }
    await close();
  });

  it('works with JavaScript off: a document post, a 303, and the flash once', async () => {
    const context = await nav.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${nav.origin}/notes`);
    await page.getByLabel('Name').fill('Noscript Nia');
    await page.getByLabel('Message').fill('No JavaScript needed');
    const [response] = await Promise.all([page.waitForNavigation(), page.getByTestId('add').click()]);
    expect(response?.url()).toBe(`${nav.origin}/notes`);
    expect(response?.request().redirectedFrom()?.method()).toBe('POST');
    expect(await page.getByTestId('flash').textContent()).toBe('Thanks, Noscript Nia');
    await page.reload();
    expect(await page.getByTestId('flash').count()).toBe(0);
    await context.close();
  });

  it('an action that throws shows its digest in the route boundary, the one the server logged', async () => {
    const { page, close } = await nav.hydrated('/_diag/action-error');
    await page.getByTestId('action-error-submit').click();
    await page.getByText('Digest:').waitFor();
    const digest = pageDigest(await page.content());
    const failure = nav.host.logs.failures().find((line) => line.digest === digest);
    expect(failure).toMatchObject({ status: 500, route: 'data:diag/action-error' });
    expect(await page.getByTestId('diag-layout').count()).toBe(1);
    await close();
  });
});
