/**
 * A real headless Firefox for the console's tests (issue 17: "works in current Chromium and
 * Firefox"): Debian's `firefox-esr`, driven by puppeteer-core over WebDriver BiDi (no browser is
 * downloaded; puppeteer-core never downloads one). A machine without it fails the tests with the
 * command that installs it: they are never skipped silently, as with Chromium (browser.ts, whose
 * screenshots and axe-core checks take this driver's pages too).
 */
import path from 'node:path';
import puppeteer, { type Browser, type ElementHandle, type NodeFor, type Page } from 'puppeteer-core';
import { installedBrowser } from './browser';

export function firefoxPath(): string {
  return installedBrowser(
    [process.env.FIREFOX_PATH, '/usr/bin/firefox-esr', '/usr/bin/firefox'],
    'No Firefox found: install Debian’s firefox-esr with `sudo apt-get install firefox-esr` (or set FIREFOX_PATH). See the README.',
  );
}

export function launchFirefox(): Promise<Browser> {
  return puppeteer.launch({ browser: 'firefox', protocol: 'webDriverBiDi', executablePath: firefoxPath(), headless: true });
}

/** Firefox's screenshots, beside Chromium's (browser.ts) for comparing the two. */
export const FIREFOX_SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../../.local/test-output/console-firefox');

/** The element the CSS selector names, waiting for it (puppeteer's waitForSelector never answers null without `hidden`). */
export async function element<S extends string>(page: Page, selector: S, timeout?: number): Promise<ElementHandle<NodeFor<S>>> {
  const found = await page.waitForSelector(selector, timeout === undefined ? {} : { timeout });
  if (!found) throw new Error(`${selector} is not on the page`);
  return found;
}

/** The text of the element the CSS selector names, once it is on the page. */
export async function textOf(page: Page, selector: string): Promise<string> {
  return (await element(page, selector)).evaluate((el) => el.textContent ?? '');
}
