// What the navigation tests share: the real app behind a server that counts data requests, a
// Chromium, and a hydrated page with the requests it made recorded.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { closeContexts, openPage, sharedBrowser } from '../support/browser.ts';
import { createTestApp, DIAG, type TestApp } from '../support/test-app.ts';

/**
 * The page a request for navigation data is for, or undefined: React Router's single fetch asks
 * for `/about.data`, `/_.data` for `/` (https://reactrouter.com/explanation/single-fetch).
 */
export function dataPageOf(pathname: string): string | undefined {
  const suffix = /(\/_)?\.data$/.exec(pathname);
  if (suffix === null) return undefined;
  const page = pathname.slice(0, suffix.index);
  return suffix[1] === undefined ? page : `${page}/`;
}

/** Counts the navigation-data requests the server is answering at once, by the page they are for. */
export function countingServer(host: TestApp) {
  const stats = { inFlight: 0, maxInFlight: 0, byPath: new Map<string, number>(), finished: new Map<string, number>() };
  const server: Server = createServer((req, res) => {
    const path = dataPageOf(new URL(req.url ?? '/', 'http://x').pathname);
    if (path !== undefined) {
      stats.byPath.set(path, (stats.byPath.get(path) ?? 0) + 1);
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      res.on('close', () => {
        stats.inFlight--;
        stats.finished.set(path, (stats.finished.get(path) ?? 0) + 1);
      });
    }
    host.app(req, res);
  });
  return { server, stats };
}

/** Requests the page makes, so a test can tell a document load from a data fetch. */
export function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return requests;
}
export const documentLoads = (requests: Request[]) => requests.filter((r) => r.isNavigationRequest() && r.resourceType() === 'document');
/** The navigation-data requests for the page at `path` (exactly), or all of them. */
export const dataFetches = (requests: Request[], path?: string) =>
  requests.filter((r) => {
    const page = dataPageOf(new URL(r.url()).pathname);
    return page !== undefined && (path === undefined || page === path);
  });

export interface NavigationSuite {
  browser: Browser;
  host: TestApp;
  origin: string;
  counting: ReturnType<typeof countingServer>;
  hydrated(path: string, viewport?: { width: number; height: number }, clock?: boolean): ReturnType<typeof hydrate>;
}

async function hydrate(suite: NavigationSuite, path: string, viewport = { width: 1280, height: 900 }, clock = false) {
  const opened = await openPage(suite.browser, DIAG);
  await opened.page.setViewportSize(viewport);
  if (clock) await opened.page.clock.install();
  const requests = recordRequests(opened.page);
  await opened.page.goto(`${suite.origin}${path}`);
  await opened.page.waitForSelector('html[data-hydrated="true"]');
  return { ...opened, requests };
}

/** Call inside a describe: starts the app before its tests and stops it after; the browser is the worker's. */
export function navigationSuite(): NavigationSuite {
  const suite = {
    hydrated: (...args: [string, ({ width: number; height: number } | undefined)?, boolean?]) => hydrate(suite, ...args),
  } as NavigationSuite;
  beforeAll(async () => {
    suite.host = createTestApp();
    suite.counting = countingServer(suite.host);
    await new Promise<void>((resolve) => suite.counting.server.listen(0, '127.0.0.1', resolve));
    suite.origin = `http://localhost:${(suite.counting.server.address() as AddressInfo).port}`;
    suite.browser = await sharedBrowser();
  });
  afterAll(async () => {
    await closeContexts(suite.browser);
    suite.counting.server.closeAllConnections();
    await new Promise((resolve) => suite.counting.server.close(resolve));
    await suite.host.close();
  });
  return suite;
}
