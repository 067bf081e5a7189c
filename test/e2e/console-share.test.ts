/**
 * Sharing from the console (issue 17): on a finished job's page, shop staff make a link for the
 * customer, the customer decides on the proof page it opens, the job page then shows that
 * decision, and withdrawing the links makes the link show the withdrawn page. In a real headless
 * Chromium, with axe-core's serious and critical checks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { api, waitForJob } from './support/client';
import { onePagePdfBase64 } from './support/files';
import { target } from './support/target';
import { launchBrowser, screenshot, seriousViolations } from './support/browser';

let browser: Browser;
let context: BrowserContext;
let staff: Page;
let jobId: string;
let link: string;

/** The link as the customer's browser opens it: on the target's origin (the API's own, locally). */
const onTarget = (url: string): string => new URL(`${new URL(url).pathname}${new URL(url).hash}`, target().baseUrl).toString();

beforeAll(async () => {
  const created = await api('POST', '/jobs', { body: { orderId: `share-${Date.now()}`, sources: [{ file: await onePagePdfBase64(), name: 'card.pdf', steps: [{ type: 'preflight' }] }] } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  jobId = created.body.job.id;
  await waitForJob(jobId, 240_000);
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  staff = await context.newPage();
  await staff.goto(target().baseUrl);
  await staff.getByLabel('API key').fill(target().key);
  await staff.getByRole('button', { name: 'Sign in' }).click();
  await staff.goto(`${target().baseUrl}#/jobs/${jobId}`);
}, 300_000);

afterAll(async () => {
  await browser?.close();
});

describe('sharing a proof from the job page', () => {
  it('makes a link for the customer, shown to copy, that the customer may decide through', async () => {
    const section = staff.getByRole('region', { name: 'Share with the customer' });
    await section.getByLabel('Link works for').selectOption('30');
    await expect.poll(() => section.getByLabel('The customer may approve or ask for changes').isChecked()).toBe(true);
    await section.getByRole('button', { name: 'Make a link' }).click();
    const field = section.getByLabel(/Link for the customer/);
    await field.waitFor();
    link = await field.inputValue();
    expect(link).toMatch(/\/proof#ps1\.[\w-]+\.[\w-]+$/);
    // Thirty days, as chosen (the label says until when).
    const until = /valid until ([^)]+)\)/.exec((await section.locator('label[for="share-url"]').textContent()) ?? '')?.[1];
    expect(until).toBeTruthy();
    await screenshot(staff, '20-job-share-link');
    expect(await seriousViolations(staff)).toEqual([]);
  });

  it('shows the customer’s decision on the job page once they made it', async () => {
    const customer = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const proof = await customer.newPage();
    await proof.goto(onTarget(link));
    await proof.getByLabel('Note for the print shop (optional)').fill('Please move the logo 2 mm up.');
    await proof.getByRole('button', { name: 'Request changes' }).click();
    await proof.getByRole('heading', { name: /changes/i }).first().waitFor();
    await customer.close();

    await staff.reload();
    const section = staff.getByRole('region', { name: 'Share with the customer' });
    await expect.poll(() => section.textContent(), { timeout: 15_000 }).toContain('The customer asked for changes');
    expect(await section.textContent()).toContain('Please move the logo 2 mm up.');
    await screenshot(staff, '21-job-customer-decision');
  });

  it('withdraws every link made so far: the customer’s link then shows the withdrawn page', async () => {
    const section = staff.getByRole('region', { name: 'Share with the customer' });
    await section.getByRole('button', { name: 'Withdraw all links' }).click();
    await expect.poll(() => section.getByRole('status').textContent()).toContain('no longer opens it');
    const customer = await browser.newContext();
    const proof = await customer.newPage();
    await proof.goto(onTarget(link));
    await proof.getByRole('heading', { name: 'This link was withdrawn' }).waitFor();
    await customer.close();
  });
});
