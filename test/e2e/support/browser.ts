/**
 * A real headless Chromium for the console's tests (Debian's `chromium`, driven by
 * playwright-core; no browser is downloaded). A machine without it fails the tests with the
 * command that installs it: they are never skipped silently (issue 17).
 *
 * The screenshots and axe-core's checks take any driver's page (firefox.ts drives Firefox with
 * puppeteer-core and uses them too).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Browser } from 'playwright-core';

/** The first of the candidate paths that exists, or an error that says how to install the browser. */
export function installedBrowser(candidates: (string | undefined)[], missing: string): string {
  const found = candidates.find((p): p is string => !!p && existsSync(p));
  if (!found) throw new Error(missing);
  return found;
}

export function chromiumPath(): string {
  return installedBrowser(
    [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'],
    'No Chromium found: install it with `sudo apt-get install chromium` (or set CHROMIUM_PATH). See the README.',
  );
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox'] });
}

/**
 * A file name that is markup: every browser test uploads or names a file so, and the console and
 * the proof page must show it as text, never make an element of it or run its script.
 */
export const XSS_NAME = '<img src=x onerror=alert(1)>.pdf';

/** A page's dialog as playwright-core and puppeteer-core both give it. */
export interface PageDialog {
  message(): string;
  dismiss(): Promise<void>;
}

/** What recordDialogs needs of a page: playwright-core's and puppeteer-core's pages both announce their dialogs so. */
export interface DialogSource {
  on(event: 'dialog', listener: (dialog: PageDialog) => unknown): unknown;
}

/**
 * Records the message of every dialog the page opens (alert, confirm, prompt) into `dialogs` and
 * dismisses it, so that a script run from a hostile name shows in a list the test expects empty.
 * Pages of one test file may share a list.
 */
export function recordDialogs(page: DialogSource, dialogs: string[]): void {
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
}

/** What the helpers below need of a page, which playwright-core's and puppeteer-core's pages both are. */
export interface DrivenPage {
  screenshot(options: { path: string; fullPage: boolean }): Promise<unknown>;
  evaluate(expression: string): Promise<unknown>;
}

/** Where the console's screenshots go: under the test output, for people to look at. */
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../../.local/test-output/console');

export async function screenshot(page: DrivenPage, name: string, dir = SCREENSHOT_DIR): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.x A and AA rules). */
export async function seriousViolations(page: DrivenPage): Promise<AxeViolation[]> {
  // Evaluated through the driver's protocol (DevTools, WebDriver BiDi), which the page's CSP does not govern.
  await page.evaluate(axeSource);
  // Written as the browser runs it: this file is type-checked without the DOM's types.
  const violations = (await page.evaluate(
    "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }).then((r) => r.violations)",
  )) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
