import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (CI installs it with apt); CHROMIUM_PATH overrides. */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium';
export const SCREENSHOTS = join(import.meta.dirname, '../../artifacts/screenshots');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
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
