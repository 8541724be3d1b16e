import { describe, expect, it } from 'vitest';
import { DIAG } from '../support/test-app.ts';
import { dataFetches, documentLoads, navigationSuite, recordRequests } from './navigation-harness.ts';

// A file over its route's limit in a real browser (the upload diagnostic, client/router/diagnostics/upload.tsx,
// 64 KB a file): the form keeps the typed title and shows the field error, with JavaScript (one
// post for its navigation data, /_diag/upload.data, no document load) and without (a document post answered 422).

const OVERSIZED = { name: 'holiday.txt', mimeType: 'text/plain', buffer: Buffer.alloc(100 * 1024, 'x') };
const ERROR = 'holiday.txt is 100 KB: a file may be at most 64 KB.';

describe('a file over its limit in a real browser', () => {
  const nav = navigationSuite();

  it('with JavaScript: the field error beside the file, the typed title kept, no document load', async () => {
    const { page, console, requests, close } = await nav.hydrated('/_diag/upload');
    await page.getByLabel('Title').fill('Summer photos');
    await page.getByLabel('Attachment').setInputFiles(OVERSIZED);
    await page.getByTestId('upload-submit').click();
    await expect.poll(() => page.getByTestId('attachment-error').textContent()).toBe(ERROR);
    expect(await page.getByLabel('Title').inputValue()).toBe('Summer photos');
    expect(await page.getByLabel('Attachment').getAttribute('aria-invalid')).toBe('true');
    expect(documentLoads(requests)).toHaveLength(1);
    expect(dataFetches(requests, '/_diag/upload').map((r) => r.method())).toContain('POST');
    // The 422 is the form's answer, not an error.
    expect(console.filter((e) => (e.type === 'error' || e.type === 'pageerror') && !e.text.includes('422'))).toEqual([]);
    await close();
  });

  it('without JavaScript: the document post answers 422 with the title kept and the error', async () => {
    const context = await nav.browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: DIAG });
    const page = await context.newPage();
    const requests = recordRequests(page);
    await page.goto(`${nav.origin}/_diag/upload`);
    await page.getByLabel('Title').fill('Winter photos');
    await page.getByLabel('Attachment').setInputFiles(OVERSIZED);
    const answered = page.waitForResponse((res) => res.request().method() === 'POST');
    await page.getByTestId('upload-submit').click();
    expect((await answered).status()).toBe(422);
    await page.getByTestId('attachment-error').waitFor();
    expect(await page.getByTestId('attachment-error').textContent()).toBe(ERROR);
    expect(await page.getByLabel('Title').inputValue()).toBe('Winter photos');
    expect(documentLoads(requests)).toHaveLength(2);
    expect(nav.host.logs.failureCount()).toBe(0);
    await context.close();
  });
});
