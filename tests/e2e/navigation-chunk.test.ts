// Prefetching and the data strategy arrive in a chunk of their own after the first load
// (client/router/browser/lazy-navigation.ts): hydration never waits for it, and what a reader
// does before it comes waits for it instead of being lost.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite, openPage } from '../support/browser.ts';
import { CLIENT_DIR } from '../support/test-app.ts';
import { documentLoads, recordRequests } from './navigation-harness.ts';

function navigationChunk(): string {
  const manifest = JSON.parse(readFileSync(join(CLIENT_DIR, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    { file: string; src?: string }
  >;
  const chunk = Object.values(manifest).find((entry) => entry.src === 'client/router/browser/client-navigation.ts');
  if (chunk === undefined) throw new Error('the build has no navigation chunk');
  return `/${chunk.file}`;
}

describe('the navigation chunk in a real browser', () => {
  const suite = browserSuite();

  it('hydrates while the chunk is held back, and a click made before it comes navigates once it does', async () => {
    const chunk = navigationChunk();
    const { page, console, close } = await openPage(suite.browser);
    const held: Route[] = [];
    await page.route(`**${chunk}`, (route) => void held.push(route));
    const requests = recordRequests(page);
    await page.goto(`${suite.origin}/guide/streaming`);
    await page.waitForSelector('html[data-hydrated="true"]');
    expect(held).toHaveLength(1);

    await page.evaluate(() => ((window as unknown as Record<string, number>).sameDocument = 1));
    await page.getByRole('link', { name: 'Failures' }).first().click();
    await held[0]!.continue();
    await page.getByRole('heading', { level: 1, name: 'Failures' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as Record<string, number>).sameDocument)).toBe(1);
    expect(documentLoads(requests)).toHaveLength(1);
    expect(console.filter((entry) => entry.type === 'error' || entry.type === 'pageerror')).toEqual([]);
    await close();
  });
});
