import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, openPage, sharedBrowser } from '../support/browser.ts';
import { FakeSentry, WITH_SENTRY } from '../support/fake-sentry.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { APP_BUILDS, DIAG, DIAG_TOKEN } from '../support/test-app.ts';

describe('Sentry in a real browser', () => {
  const sentry = new FakeSentry();
  let server: RunningServer;
  let browser: Browser;
  let origin: string;
  beforeAll(async () => {
    await sentry.start();
    server = await startServer(
      { APP_BUILD: APP_BUILDS.host, SENTRY_DSN: sentry.dsn, SENTRY_TRACES_SAMPLE_RATE: '1.0', DIAGNOSTICS_TOKEN: DIAG_TOKEN },
      WITH_SENTRY,
    );
    origin = server.url.replace('127.0.0.1', 'localhost');
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    await closeContexts(browser);
    await server?.stop('SIGKILL');
    await sentry.stop();
  });

  it('a client-side throw reaches the ingest through the same-origin tunnel, tagged with the digest on the page', async () => {
    const { page, close } = await openPage(browser, DIAG);
    const tunnelled: string[] = [];
    page.on('request', (req) => tunnelled.push(new URL(req.url()).pathname));
    await page.goto(`${origin}/_diag/client-error`);
    const digest = await page.locator('code[data-digest]').innerText();
    expect(digest).toMatch(/^c-[0-9a-z]+$/);
    const event = await sentry.waitFor(() => sentry.events().find((e) => (e.tags as Record<string, string>)?.digest === digest));
    expect(event.platform).toBe('javascript');
    expect(tunnelled).toContain('/monitoring');
    // Sentry reported it, so the browser did not also post it to the server's own endpoint.
    expect(tunnelled).not.toContain('/api/client-errors');
    await close();
  });

  it('a chunk gone after a deploy reloads the page once, not in a loop', async () => {
    const { page, close } = await openPage(browser);
    // The lazily loaded Sentry chunk stands for any chunk a newer release replaced.
    await page.route('**/assets/sentry-*.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
    let documents = 0;
    page.on('request', (req) => {
      if (req.resourceType() === 'document') documents++;
    });
    // The document each failed load belonged to: the reload's own failure is left uncaught.
    const failedIn: number[] = [];
    page.on('pageerror', () => failedIn.push(documents));
    await page.goto(`${origin}/`);
    await expect.poll(() => failedIn.includes(2), { timeout: 10_000 }).toBe(true);
    // Quiet network after the second failure: no third document is on its way.
    await page.waitForLoadState('networkidle');
    expect(documents).toBe(2);
    await close();
  });

  it("the page load joins the server request's trace", async () => {
    const { page, close } = await openPage(browser);
    await page.goto(`${origin}/`);
    const meta = await page.locator('meta[name="sentry-trace"]').getAttribute('content');
    const traceId = meta?.split('-')[0];
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    await page.waitForSelector('html[data-hydrated="true"]');
    // The browser's page-load span is sent when it ends; the envelope header names its trace
    // (waitFor fails the test if no such envelope arrives).
    await sentry.waitFor(
      () =>
        sentry.envelopes.find(
          (e) => (e.header.trace as { trace_id?: string } | undefined)?.trace_id === traceId && e.raw.includes('pageload'),
        ),
      20_000,
    );
    // Same-origin fetches carry the trace on to the server.
    const fetched = page.waitForRequest((req) => req.url().endsWith('/healthz'));
    await page.evaluate(() => fetch('/healthz'));
    expect((await fetched).headers()['sentry-trace']).toMatch(new RegExp(`^${traceId}-`));
    await close();
  });
});
