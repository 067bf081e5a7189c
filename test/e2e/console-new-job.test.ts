/**
 * The console's New job page (issue 17) in a real headless Chromium against the runtime: files
 * dropped onto the drop zone by a real drag and drop (a DataTransfer dispatched in the page) and
 * chosen with the file input, each uploaded straight to storage (another origin, so through its
 * CORS answer) with its own progress bar reaching 100 %; a refused file with its reason; the form's
 * corrections; a broken connection and Retry; a preflight submitted with the order and its context, followed on the job's page
 * to done. A hostile file name stays text, and axe finds no serious or critical violation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, waitForJob } from './support/client';
import { onePagePdfBase64 } from './support/files';
import { target } from './support/target';
import { launchBrowser, recordDialogs, screenshot, seriousViolations, XSS_NAME } from './support/browser';

const REFUSED_NAME = 'notes.docx';
const ORDER = `new-job-${Date.now()}`;

let browser: Browser;
let page: Page;
const dialogs: string[] = [];
let pdfBase64: string;
let jobId: string;

/** Drops files onto the drop zone as a browser does: dragenter, dragover, drop with one DataTransfer. */
async function dropFiles(p: Page, files: { name: string; base64: string; type: string }[]): Promise<void> {
  const dataTransfer = await p.evaluateHandle((list) => {
    const g = globalThis as any;
    const dt = new g.DataTransfer();
    for (const f of list) dt.items.add(new g.File([Uint8Array.from(g.atob(f.base64), (c: string) => c.charCodeAt(0))], f.name, { type: f.type }));
    return dt;
  }, files);
  const zone = p.getByTestId('drop-zone');
  for (const type of ['dragenter', 'dragover', 'drop']) await zone.dispatchEvent(type, { dataTransfer });
}

const row = (name: string) => page.locator('li.upload').filter({ has: page.locator('.upload-name', { hasText: name }) });

beforeAll(async () => {
  pdfBase64 = await onePagePdfBase64();
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  recordDialogs(page, dialogs);
  await page.goto(target().baseUrl);
  await page.getByLabel('API key').fill(target().key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Jobs' }).waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('the New job page', () => {
  it('is linked from the header, and offers the operations, the profiles and the order fields, labelled', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'New job' }).click();
    await page.getByRole('heading', { name: 'New job' }).waitFor();
    expect(page.url()).toMatch(/#\/new$/);
    for (const op of ['Preflight', 'Fix', 'Validate', 'Previews', 'Optimize', 'Full pipeline']) await page.getByRole('radio', { name: op }).waitFor();
    // The profiles come from GET /profiles.
    await expect.poll(() => page.getByLabel('Preflight profile').locator('option').count()).toBeGreaterThan(1);
    for (const label of ['Order id', 'Customer id', 'Customer e-mail', 'Trim width (mm)', 'Trim height (mm)', 'Bleed required (mm)', 'Pages, at least']) {
      await page.getByLabel(label, { exact: true }).waitFor();
    }
    await page.getByRole('radio', { name: 'Validate' }).check();
    await page.getByRole('checkbox', { name: /PDF\/A-2b/ }).waitFor();
    await page.getByRole('checkbox', { name: /PDF\/UA-1/ }).waitFor();
    await page.getByRole('radio', { name: 'Preflight' }).check();
    await screenshot(page, '10-new-job-empty');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('says what to correct when the job cannot be made yet', async () => {
    await page.getByLabel('Customer e-mail').fill('not an address');
    await page.getByRole('button', { name: 'Create job' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/Correct the 2 fields marked below/);
    expect(await page.locator('#job-files-error').textContent()).toContain('Add at least one file.');
    expect(await page.getByLabel('Customer e-mail').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#job-customerEmail-error').textContent()).toContain('Enter an e-mail address');
    await screenshot(page, '11-new-job-corrections');
    expect(await seriousViolations(page)).toEqual([]);
    // A corrected field loses its mark at once.
    await page.getByLabel('Customer e-mail').fill('');
    expect(await page.getByLabel('Customer e-mail').getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByRole('alert').first().textContent()).toMatch(/Correct the field marked below/);
  });

  it('uploads a dropped PDF to storage with its progress reaching 100 %, and refuses a file that is no PDF or image, saying why', async () => {
    await dropFiles(page, [
      { name: XSS_NAME, base64: pdfBase64, type: 'application/pdf' },
      { name: REFUSED_NAME, base64: Buffer.from('PK\u0003\u0004 a word document, not a print file').toString('base64'), type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
    ]);
    const pdf = row(XSS_NAME);
    await expect.poll(() => pdf.getAttribute('data-upload-state'), { timeout: 30_000 }).toBe('uploaded');
    expect(await pdf.locator('.upload-percent').textContent()).toBe('100 %');
    expect(await pdf.locator('progress').evaluate((el) => (el as any).value)).toBe(100);
    // The bar is labelled with the file's name, as text.
    expect(await page.getByLabel(`Upload of ${XSS_NAME}`).evaluate((el) => el.tagName)).toBe('PROGRESS');

    const refused = row(REFUSED_NAME);
    await expect.poll(() => refused.getAttribute('data-upload-state')).toBe('failed');
    expect(await refused.getByRole('alert').textContent()).toMatch(/^Refused type: this is not a PDF or an image/);
    expect(await refused.getByRole('button', { name: `Retry ${REFUSED_NAME}` }).count()).toBe(0);

    // The hostile name is text: no element was made of it, no script ran.
    expect(await pdf.locator('.upload-name').textContent()).toBe(`Upload of ${XSS_NAME}`);
    expect(await page.locator('main img').count()).toBe(0);
    await screenshot(page, '12-new-job-dropped');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('takes a file chosen with the file input too (the keyboard’s way in)', async () => {
    await page.getByLabel('Choose files').setInputFiles({ name: 'back.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdfBase64, 'base64') });
    await expect.poll(() => row('back.pdf').getAttribute('data-upload-state'), { timeout: 30_000 }).toBe('uploaded');
    // Keyboard: the input is reachable by Tab, and its label is what is read.
    await page.getByRole('button', { name: 'Create job' }).focus();
    await page.locator('#file-input').focus();
    expect(await page.evaluate('document.activeElement.id')).toBe('file-input');
  });

  it('says so when the connection to storage breaks, and Retry uploads the file', async () => {
    const consoleOrigin = new URL(target().baseUrl).origin;
    // Every request to storage (another origin than the console's) fails as a cut connection would.
    const toStorage = (url: URL) => url.origin !== consoleOrigin;
    await page.route(toStorage, (route) => route.abort('connectionreset'));
    await dropFiles(page, [{ name: 'cut.pdf', base64: pdfBase64, type: 'application/pdf' }]);
    const cut = row('cut.pdf');
    await expect.poll(() => cut.getAttribute('data-upload-state'), { timeout: 30_000 }).toBe('failed');
    expect(await cut.getByRole('alert').textContent()).toMatch(/^Network error: the upload was interrupted/);
    await screenshot(page, '12b-new-job-network-error');
    await page.unroute(toStorage);
    await cut.getByRole('button', { name: 'Retry cut.pdf' }).click();
    await expect.poll(() => cut.getAttribute('data-upload-state'), { timeout: 30_000 }).toBe('uploaded');
    await cut.getByRole('button', { name: 'Remove cut.pdf' }).click();
  });

  it('will not submit while a file that could not be uploaded is still listed', async () => {
    await page.getByRole('button', { name: 'Create job' }).click();
    expect(await page.locator('#job-files-error').textContent()).toContain('Remove or retry the file that could not be uploaded.');
    await page.getByRole('button', { name: `Remove ${REFUSED_NAME}` }).click();
    expect(await row(REFUSED_NAME).count()).toBe(0);
  });

  it('submits a preflight with the order and its context, and follows the new job on its page to done', async () => {
    await page.getByRole('radio', { name: 'Preflight' }).check();
    await page.getByLabel('Preflight profile').selectOption('default');
    await page.getByLabel('Order id').fill(ORDER);
    await page.getByLabel('Customer id').fill('cust-new');
    await page.getByLabel('Trim width (mm)').fill('148');
    await page.getByLabel('Trim height (mm)').fill('210');
    await page.getByLabel('Bleed required (mm)').fill('3');
    await page.getByRole('button', { name: 'Create job' }).click();

    await page.waitForURL(/#\/jobs\/job_[0-9a-z]+$/, { timeout: 30_000 });
    jobId = decodeURIComponent(/#\/jobs\/([^/]+)$/.exec(page.url())![1]!);
    await page.getByRole('heading', { name: `Job ${jobId}` }).waitFor();

    // Two preflights on a machine shared with other work: allow them time (the default is 60 s).
    const job = await waitForJob(jobId, 150_000);
    expect(job).toMatchObject({ status: 'done', orderId: ORDER, customerId: 'cust-new', policy: { onFail: 'reject' } });
    expect(job.tasks.map((t: any) => t.source)).toEqual([XSS_NAME, 'back.pdf']);
    for (const t of job.tasks) {
      expect(t.fileRef).toMatch(/^upload_/);
      expect(t.steps.map((s: any) => s.type)).toEqual(['preflight']);
    }
    // The order context reached the preflight: its trim size is among the thresholds applied.
    expect(JSON.stringify(job.tasks[0].steps[0].runtimeParams)).toMatch(/148/);

    // The page follows the job until it is done (read loosely: the job page is its own test's
    // subject), and shows the hostile name as text there too.
    await expect.poll(() => page.locator('main').textContent(), { timeout: 30_000 }).toMatch(/done/);
    expect(await page.locator('main').textContent()).toContain(XSS_NAME);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    await screenshot(page, '13-new-job-followed');
    expect(await seriousViolations(page)).toEqual([]);
  }, 240_000);

  it('ran no script from a file name', () => {
    expect(dialogs).toEqual([]);
  });
});

describe('the job the page created', () => {
  it('is listed with its order on the jobs page', async () => {
    const listed = await api('GET', `/jobs?orderId=${ORDER}`);
    expect(listed.body.jobs.map((j: any) => j.id)).toEqual([jobId]);
  });
});
