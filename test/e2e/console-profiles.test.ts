/**
 * The console's profiles page (#/profiles) in headless Chromium: the account's own profiles
 * beside the built-ins, each with what it changes and its thresholds with their units, a
 * hostile profile name shown as text, and axe-core's checks.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api } from './support/client';
import { target } from './support/target';
import { launchBrowser, recordDialogs, screenshot, seriousViolations, XSS_NAME } from './support/browser';

const id = `console-ads-${randomBytes(4).toString('hex')}`;
let browser: Browser;
let page: Page;
const dialogs: string[] = [];

describe.skipIf(!target().adminKey)('the console’s profiles page', () => {
  beforeAll(async () => {
    const created = await api('POST', '/profiles', {
      key: target().adminKey!,
      body: { id, name: XSS_NAME, description: 'Ink limit of the Daily Bugle', kind: 'pdf', base: 'gwg-newspaper', checks: { 'colour.tac': { thresholds: { max_percent: 240 } }, 'pages.empty': { severity: 'error' } } },
    });
    expect(created.status, created.text).toBe(201);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    recordDialogs(page, dialogs);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await api('DELETE', `/profiles/${id}`, { key: target().adminKey! });
  });

  it('shows the account’s profile with what it changes, then the built-ins, to a standard key', async () => {
    await page.goto(target().baseUrl);
    await page.getByLabel('API key').fill(target().key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Profiles' }).click();
    await page.getByRole('heading', { name: 'Preflight profiles', level: 1 }).waitFor();

    const own = page.locator(`article[data-profile-id="${id}"]`);
    await own.waitFor();
    // The name is text, never markup: nothing ran.
    expect(await own.getByRole('heading', { level: 3 }).textContent()).toBe(XSS_NAME);
    expect(dialogs).toEqual([]);
    expect(await own.textContent()).toContain('version 1, based on gwg-newspaper');
    expect(await own.locator('tr[data-check="colour.tac"]').textContent()).toContain('max_percent: 240 %');
    expect(await own.textContent()).toContain('Severity changed: pages.empty (error)');

    const builtIn = page.locator('details[data-profile-id="gwg-newspaper"]');
    await builtIn.locator('summary').click();
    expect(await builtIn.locator('tr[data-check="colour.tac"]').textContent()).toContain('max_percent: 245 %');
    await screenshot(page, '10-profiles');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
