import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app.ts';

/** Debian's Chromium (CI installs both with apt: .ci/run); CHROMIUM_PATH overrides both. */
const CHROMIUM = '/usr/lib/chromium/chromium';
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
export const SCREENSHOTS = join(import.meta.dirname, '../../artifacts/screenshots');

/**
 * Chromium's headless shell where it is installed, as Playwright itself runs headless tests:
 * the same Blink and V8 without the browser's UI layers, and about half the CPU of the full
 * browser in its new headless mode on the browser tests (docs/performance.md), on a suite that
 * is CPU-bound. The back/forward cache exists only in the full browser.
 */
function executablePath(backForwardCache: boolean): string {
  if (process.env.CHROMIUM_PATH !== undefined) return process.env.CHROMIUM_PATH;
  return !backForwardCache && existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM;
}

/** `backForwardCache`: keep Chromium's back/forward cache, which Playwright turns off by default. */
export function launchBrowser({ backForwardCache = false } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: executablePath(backForwardCache),
    ignoreDefaultArgs: backForwardCache ? ['--disable-back-forward-cache'] : undefined,
    // Without the background-networking flags Chromium calls outside hosts, which are refused here.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

let shared: Promise<Browser> | undefined;

/**
 * One Chromium per test worker, launched on first use and kept for the worker's next files
 * (vitest.config.ts: `isolate: false`): a launch costs about 1.5 s of CPU, and the suite's
 * browser files used to launch five. Tests share nothing through it: each opens its own
 * context, a profile of its own (cookies, storage, cache). Playwright kills the browsers it
 * launched when this process exits, on 'exit', SIGINT, SIGTERM and SIGHUP alike.
 */
export function sharedBrowser(): Promise<Browser> {
  if (shared === undefined) {
    const launching = launchBrowser();
    const forget = () => {
      if (shared === launching) shared = undefined;
    };
    shared = launching;
    launching.then((browser) => browser.on('disconnected', forget), forget);
  }
  return shared;
}

/** A file's tests leave nothing open in the shared browser for the next file. */
export async function closeContexts(browser: Browser | undefined): Promise<void> {
  await Promise.all((browser?.contexts() ?? []).map((context) => context.close()));
}

export interface ConsoleEntry {
  type: string;
  text: string;
}

/** A page that records its console and uncaught page errors. */
export async function openPage(browser: Browser, headers: Record<string, string> = {}) {
  const context = await browser.newContext({ extraHTTPHeaders: headers });
  const page = await context.newPage();
  const console: ConsoleEntry[] = [];
  page.on('console', (message) => console.push({ type: message.type(), text: message.text() }));
  page.on('pageerror', (error) => console.push({ type: 'pageerror', text: error.message }));
  return { page, console, close: () => context.close() };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

export interface BrowserSuite {
  host: TestApp;
  /** The app's origin as `localhost` (error texts show the host name the browser used). */
  origin: string;
  browser: Browser;
}

/** Call inside a describe: the app on a real server, closed after, and the worker's Chromium for its tests. */
export function browserSuite(env: Record<string, string> = {}, options: TestAppOptions = {}): BrowserSuite {
  const suite = {} as BrowserSuite;
  beforeAll(async () => {
    suite.host = createTestApp(env, {}, options);
    suite.origin = (await suite.host.listen()).replace('127.0.0.1', 'localhost');
    suite.browser = await sharedBrowser();
  });
  afterAll(async () => {
    await closeContexts(suite.browser);
    await suite.host?.close();
  });
  return suite;
}
