import { describe, expect, it } from 'vitest';
import { clientErrorMessage, serverErrorMessage } from '../../shared/messages.ts';
import { browserSuite, openPage, screenshot } from '../support/browser.ts';
import { DIAG } from '../support/test-app.ts';

describe('in a real browser', () => {
  const suite = browserSuite();

  it('hydrates the home page: the streamed section arrives, the counter works, the console stays clean', async () => {
    const { page, console, close } = await openPage(suite.browser);
    await page.goto(`${suite.origin}/`);
    await page.waitForSelector('html[data-hydrated="true"]');
    await expect(page.getByTestId('streamed-content').isVisible()).resolves.toBe(true);
    await page.getByTestId('counter').click();
    await page.getByTestId('counter').click();
    expect(await page.getByTestId('counter').textContent()).toBe('Clicked 2 times');
    await screenshot(page, 'home');
    expect(console.filter((entry) => entry.type === 'error' || entry.type === 'warning' || entry.type === 'pageerror')).toEqual([]);
    await close();
  });

  it('shows the server error page with the exact text, localhost and the digest', async () => {
    const { page, close } = await openPage(suite.browser, DIAG);
    const response = await page.goto(`${suite.origin}/_diag/server-error`);
    expect(response?.status()).toBe(500);
    const text = await page.locator('main').innerText();
    const digest = await page.locator('code[data-digest]').innerText();
    expect(text).toContain(serverErrorMessage('localhost'));
    expect(text).toContain(`Digest: ${digest}`);
    expect(suite.host.logs.failures().some((line) => line.digest === digest)).toBe(true);
    await screenshot(page, 'server-error');
    await close();
  });

  it('shows the client error page when the page throws after hydration, and the server log gets its digest', async () => {
    const { page, console, close } = await openPage(suite.browser, DIAG);
    await page.goto(`${suite.origin}/_diag/client-error`);
    const main = page.locator('main [role="alert"]');
    await main.waitFor();
    expect(await main.innerText()).toContain(clientErrorMessage('localhost'));
    const digest = await page.locator('code[data-digest]').innerText();
    expect(digest).toMatch(/^c-[0-9a-z]+$/);
    expect(console.some((entry) => entry.type === 'error' && entry.text.includes(`digest ${digest}`))).toBe(true);
    const line = await suite.host.logs.waitFor((l) => l.msg === 'client error' && l.digest === digest);
    expect(line).toMatchObject({
      side: 'client',
      kind: 'caught',
      path: '/_diag/client-error',
      error: { message: expect.stringContaining('Diagnostic client error') },
    });
    await screenshot(page, 'client-error');
    await close();
  });

  it('recovers in the browser from a Suspense error on the server, and onRecoverableError gets the server digest', async () => {
    const { page, console, close } = await openPage(suite.browser, DIAG);
    await page.goto(`${suite.origin}/_diag/stream-error`);
    await page.getByTestId('stream-error-content').waitFor();
    expect(await page.getByTestId('stream-error-content').innerText()).toContain('Recovered');
    const report = await suite.host.logs.waitFor((l) => l.msg === 'client error' && l.kind === 'recoverable');
    const serverFailure = suite.host.logs.failures().find((l) => l.path === '/_diag/stream-error');
    expect(report.digest).toBe(serverFailure?.digest);
    // The browser sent the proof the server wrote beside the digest: a genuine report, verified.
    expect(report).toMatchObject({ verified: true, pageReqId: serverFailure?.reqId });
    expect(console.some((entry) => entry.text.includes(`digest ${serverFailure?.digest as string}`))).toBe(true);
    await screenshot(page, 'stream-error-recovered');
    await close();
  });
});
