/**
 * The console's job page (issue 17) in a real headless Chromium: a PDF built here with findings
 * at known places (a 40 px image stretched over 2 × 2 inches at 1 inch from the bottom left, far
 * too coarse for print; document JavaScript, which a fix removes), uploaded with a hostile file
 * name and preflighted under manual review. The page renders the pages through a previews job,
 * frames each located finding where the report says it is (compared with the report's
 * coordinates converted by the page's own scale), highlights the chosen finding, zooms, refuses
 * a review by a standard key with the API's sentence and takes an admin's, and "Fix it" shows the
 * original and the fixed file side by side with the findings that remain. axe-core finds no
 * serious or critical violation on any of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { api, postForm, waitForJob } from './support/client';
import { target } from './support/target';
import { launchBrowser, recordDialogs, screenshot, seriousViolations, XSS_NAME } from './support/browser';
import { coarseImagePdf, expectClose, expectedOnScreen, IMAGE_BOX, MEDIA, TRIM } from './support/framed-page';

let browser: Browser;
let page: Page;
const dialogs: string[] = [];
let jobId: string;
let report: any;

async function signIn(key: string): Promise<void> {
  await page.goto(target().baseUrl);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Jobs' }).waitFor();
}

async function rect(l: Locator): Promise<{ left: number; top: number; width: number; height: number }> {
  return l.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, width: r.width, height: r.height };
  });
}

beforeAll(async () => {
  const bytes = await coarseImagePdf({ javascript: true });
  const up = await api('POST', '/uploads', { body: { sizeBytes: bytes.length, mimeType: 'application/pdf' } });
  expect(up.status, up.text).toBe(200);
  expect((await postForm(up.body.upload, new Blob([bytes]))).status).toBeLessThan(300);
  const created = await api('POST', '/jobs', {
    body: { orderId: `job-page-${Date.now()}`, policy: { onFail: 'manual_review' }, sources: [{ fileRef: up.body.fileRef, name: XSS_NAME, steps: [{ type: 'preflight' }] }] },
  });
  expect(created.status, created.text).toBe(201);
  jobId = created.body.job.id;
  const done = await waitForJob(jobId);
  report = done.results.preflight[0].report;

  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  page = await context.newPage();
  recordDialogs(page, dialogs);
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

const findingNumber = (checkId: string): number => report.findings.findIndex((f: any) => f.checkId === checkId) + 1;

describe('the console’s job page', () => {
  it('has a report with the findings this test is about (so the checks below mean something)', () => {
    const image = report.findings[findingNumber('images.resolution-low') - 1];
    expect(image).toMatchObject({ severity: 'error', bbox: IMAGE_BOX, bboxPage: 1 });
    expect(report.findings[findingNumber('document.javascript') - 1]).toMatchObject({ fix: { available: true } });
  });

  it('shows the page, rendered by a previews job, with the image’s finding framed where the report puts it', async () => {
    await signIn(target().key);
    await page.goto(`${target().baseUrl}#/jobs/${jobId}`);
    const task = page.locator('section.task').first();
    await expect.poll(() => task.locator('h2').textContent()).toBe(XSS_NAME);
    const image = task.locator('.inspector .page-image');
    await image.waitFor({ timeout: 90_000 });
    await expect.poll(() => image.evaluate((img: any) => img.complete && img.naturalWidth > 0), { timeout: 30_000 }).toBe(true);

    const n = findingNumber('images.resolution-low');
    const frame = task.locator(`.inspector .mark[data-finding="${n}"]`);
    expect(await frame.count()).toBe(1);
    expect(await frame.textContent()).toContain(String(n));
    expect(await frame.getAttribute('class')).toContain('mark-error');
    expectClose(await rect(frame), expectedOnScreen(await rect(image), IMAGE_BOX, MEDIA));
    // The TrimBox as a line, 3 mm inside the page edge.
    expectClose(await rect(task.locator('.inspector .page-canvas .page-line-trim')), expectedOnScreen(await rect(image), TRIM, MEDIA));
    expect(await task.locator('.page-legend').textContent()).toMatch(/TrimBox.*BleedBox/);
    await screenshot(page, '10-job-page');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('lists the findings by severity with the report’s sentences; choosing one highlights its frame and says what fixing does', async () => {
    const task = page.locator('section.task').first();
    const n = findingNumber('images.resolution-low');
    const errors = task.locator('.findings-group.findings-error');
    expect(await errors.locator('h4').textContent()).toMatch(/Errors \(\d+\)/);
    const button = task.locator(`.findings-list button[data-finding="${n}"]`);
    expect(await button.textContent()).toContain(report.findings[n - 1].message);
    await button.click();
    expect(await button.getAttribute('aria-pressed')).toBe('true');
    expect(await task.locator(`.inspector .mark[data-finding="${n}"]`).getAttribute('class')).toContain('mark-selected');
    expect(await task.locator('.inspector .mark-selected').count()).toBe(1);
    expect(await task.locator('.finding-detail').textContent()).toMatch(/No automatic fix resolves this/);

    // The keyboard moves to the next finding and chooses it; a fixable one says which fix.
    const js = findingNumber('document.javascript');
    const buttons = task.locator('.findings-list button[data-finding]');
    const order = await buttons.evaluateAll((bs) => bs.map((b) => Number(b.getAttribute('data-finding'))));
    await button.focus();
    await page.keyboard.press('ArrowDown');
    const next = order[order.indexOf(n) + 1]!;
    expect(await task.locator(`.findings-list button[data-finding="${next}"]`).getAttribute('aria-pressed')).toBe('true');
    expect(await button.getAttribute('aria-pressed')).toBe('false');
    await task.locator(`.findings-list button[data-finding="${js}"]`).click();
    expect(await task.locator('.finding-detail').textContent()).toMatch(/"Fix it" would apply:.*Remove JavaScript/i);
    await screenshot(page, '11-job-page-finding-chosen');
  });

  it('zooms with the keyboard and the buttons, and the frames keep their place', async () => {
    const task = page.locator('section.task').first();
    const image = task.locator('.inspector .page-image');
    const before = await rect(image);
    await task.locator('.inspector .page-scroll').focus();
    await page.keyboard.press('+');
    expect(await task.locator('.inspector .zoom-level').textContent()).toBe('150 %');
    const zoomed = await rect(image);
    expect(zoomed.width).toBeCloseTo(before.width * 1.5, 0);
    const frame = task.locator(`.inspector .mark[data-finding="${findingNumber('images.resolution-low')}"]`);
    expectClose(await rect(frame), expectedOnScreen(zoomed, IMAGE_BOX, MEDIA));
    await task.getByRole('button', { name: /Zoom out/ }).click();
    expect(await task.locator('.inspector .zoom-level').textContent()).toBe('100 %');
  });

  it('shows a standard key’s review refused with the API’s sentence', async () => {
    await page.getByLabel(/Note/).fill('Colours checked by phone');
    await page.getByRole('button', { name: /Approve/ }).click();
    await expect.poll(() => page.locator('.review [role="alert"]').textContent()).toBe('Only keys with the admin role can review jobs.');
  });

  it('“Fix it” fixes the same file and shows before and after, page by page, with the findings that remain', async () => {
    const task = page.locator('section.task').first();
    await task.getByRole('button', { name: /Fix it/ }).click();
    const view = task.locator('.before-after-view');
    await view.waitFor({ timeout: 120_000 });
    const pair = view.locator('.before-after[data-page="1"]');
    expect(await pair.locator('.side-label').allTextContents()).toEqual(['Before, page 1', 'After, page 1']);
    const images = pair.locator('img.page-image');
    expect(await images.count()).toBe(2);
    await expect.poll(() => images.evaluateAll((imgs: any[]) => imgs.every((i) => i.complete && i.naturalWidth > 0)), { timeout: 30_000 }).toBe(true);
    const remaining = (await view.locator('.findings-list').textContent()) ?? '';
    expect(remaining).toContain(report.findings[findingNumber('images.resolution-low') - 1].message);
    expect(remaining).not.toContain(report.findings[findingNumber('document.javascript') - 1].message);
    expect(await view.textContent()).toMatch(/Applied Remove JavaScript/i);
    await pair.scrollIntoViewIfNeeded();
    await screenshot(page, '12-job-page-fixed');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('takes an admin’s decision with its note', async () => {
    expect(target().adminKey).toBeTruthy();
    // The page remembered the jobs it started for this key; signing out forgets them with the key.
    expect(await page.evaluate('Object.keys(sessionStorage).length')).toBeGreaterThan(1);
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    await page.getByLabel('API key').fill(target().adminKey!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Still at the job's address: signing in again shows the job.
    await page.getByRole('heading', { name: `Job ${jobId}` }).waitFor();
    await page.getByLabel(/Note/).fill('Colours checked by phone');
    await page.getByRole('button', { name: /Approve/ }).click();
    await expect.poll(() => page.locator('.review').textContent()).toMatch(/Approved.*Colours checked by phone/);
    const after = await api('GET', `/jobs/${jobId}`);
    expect(after.body.job.review).toMatchObject({ decision: 'approve', note: 'Colours checked by phone' });
  });

  it('ran no script from the file name and drew it as text', async () => {
    expect(dialogs).toEqual([]);
    expect(await page.locator('main img[src="x"]').count()).toBe(0);
  });
});
