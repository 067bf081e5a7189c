/**
 * The web console (issue 17) in a real headless Firefox (Debian's firefox-esr over WebDriver BiDi,
 * support/firefox.ts) against the runtime, through its main flows: signing in with a key kept in
 * sessionStorage only, the jobs list, the New job page's upload of a PDF chosen with the file
 * input reaching 100 % and submitted as a preflight that reaches done, and that job's page with
 * its steps, downloads and findings, the file's located finding framed over the page image where
 * the report puts it. The file name is hostile and stays text; axe-core finds no serious or
 * critical violation on any page. Screenshots go to .local/test-output/console-firefox/, to be
 * compared with Chromium's (the other console tests) for Firefox-only layout bugs.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'puppeteer-core';
import { waitForJob } from './support/client';
import { target } from './support/target';
import { recordDialogs, screenshot as shoot, seriousViolations, XSS_NAME, type DrivenPage } from './support/browser';
import { element, FIREFOX_SCREENSHOT_DIR, launchFirefox, textOf } from './support/firefox';
import { coarseImagePdf, expectClose, expectedOnScreen, IMAGE_BOX, MEDIA } from './support/framed-page';

const ORDER = `firefox-${Date.now()}`;

let browser: Browser;
let page: Page;
let fileDir: string;
const dialogs: string[] = [];
let jobId: string;
let report: any;

const screenshot = (name: string) => shoot(page as DrivenPage, name, FIREFOX_SCREENSHOT_DIR);
const violations = () => seriousViolations(page as DrivenPage);
/** Waits until the expression, evaluated in the page, is true. */
const until = (expression: string, timeout = 30_000) => page.waitForFunction(expression, { timeout, polling: 200 });
const heading = (text: string) => until(`document.querySelector('main h1')?.textContent === ${JSON.stringify(text)}`);

/** Where the element is on screen, in CSS px. */
async function rect(selector: string) {
  return (await element(page, selector)).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, width: r.width, height: r.height };
  });
}

beforeAll(async () => {
  // The file the New job page's file input is given, under its hostile name.
  fileDir = await mkdtemp(path.join(tmpdir(), 'proofline-firefox-'));
  await writeFile(path.join(fileDir, XSS_NAME), await coarseImagePdf());
  browser = await launchFirefox();
  page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 1000 });
  recordDialogs(page, dialogs);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (fileDir) await rm(fileDir, { recursive: true, force: true });
});

describe('the console in Firefox', () => {
  it('runs in Firefox itself, driven over WebDriver BiDi', async () => {
    expect(await browser.version()).toMatch(/^firefox\//i);
    expect(await page.evaluate('navigator.userAgent')).toMatch(/Firefox\/\d+/);
  });

  it('signs in with a key kept in sessionStorage only, and shows the jobs list', async () => {
    await page.goto(target().baseUrl);
    await element(page, '#api-key');
    await page.type('#api-key', target().key);
    await page.click('main.sign-in button[type="submit"]');
    await heading('Jobs');
    expect(await page.evaluate('sessionStorage.length')).toBe(1);
    expect(await page.evaluate('localStorage.length')).toBe(0);
    expect(page.url()).not.toContain(target().key);
    await element(page, 'form.filters #filter-orderId');
    await screenshot('01-jobs');
    expect(await violations()).toEqual([]);
  });

  it('uploads a PDF chosen with the file input to 100 % and submits it as a preflight that reaches done', async () => {
    await page.click('header a[href="#/new"]');
    await heading('New job');
    // The profiles come from GET /profiles.
    await until("document.querySelectorAll('#job-profileId option').length > 1");
    const input = await element(page, 'input#file-input');
    await input.uploadFile(path.join(fileDir, XSS_NAME));
    await until(`document.querySelector('li.upload')?.getAttribute('data-upload-state') === 'uploaded'`);
    expect(await textOf(page, 'li.upload .upload-percent')).toBe('100 %');
    expect(await page.evaluate("document.querySelector('li.upload progress').value")).toBe(100);
    expect(await textOf(page, 'li.upload .upload-name')).toBe(`Upload of ${XSS_NAME}`);
    await screenshot('02-new-job-uploaded');
    expect(await violations()).toEqual([]);

    await page.click('#op-preflight');
    await page.select('#job-profileId', 'default');
    await page.type('#job-orderId', ORDER);
    await page.click('form.new-job button[type="submit"]');
    await until("/^#\\/jobs\\/job_[0-9a-z]+$/.test(location.hash)");
    jobId = decodeURIComponent(/#\/jobs\/([^/]+)$/.exec(page.url())![1]!);
    await heading(`Job ${jobId}`);
    // A preflight on a machine shared with other work: allow it time.
    const job = await waitForJob(jobId, 150_000);
    expect(job).toMatchObject({ status: 'done', orderId: ORDER });
    report = job.results.preflight[0].report;
    // The page follows the job to done by itself.
    await until("/\\bdone\\b/.test(document.querySelector('main').textContent)");
  }, 180_000);

  it('shows the job’s page: the file’s steps and downloads, its findings, and the located one framed where the report puts it', async () => {
    const n = report.findings.findIndex((f: any) => f.checkId === 'images.resolution-low') + 1;
    expect(report.findings[n - 1]).toMatchObject({ severity: 'error', bbox: IMAGE_BOX, bboxPage: 1 });
    expect(await textOf(page, 'section.task h2')).toBe(XSS_NAME);
    expect(await textOf(page, 'section.task .steps')).toMatch(/preflight.*done/);
    const download = await element(page, 'section.task .downloads a');
    expect(await download.evaluate((a) => a.textContent)).toBe(XSS_NAME);
    expect((await fetch((await download.evaluate((a) => a.getAttribute('href')))!)).status).toBe(200);

    // The page image, rendered by a previews job the page starts.
    await element(page, 'section.task .inspector .page-image', 90_000);
    await until("(() => { const i = document.querySelector('section.task .inspector .page-image'); return i.complete && i.naturalWidth > 0; })()");
    const frame = `section.task .inspector .mark[data-finding="${n}"]`;
    expect(await textOf(page, frame)).toContain(String(n));
    expect(await (await element(page, frame)).evaluate((el) => el.className)).toContain('mark-error');
    expectClose(await rect(frame), expectedOnScreen(await rect('section.task .inspector .page-image'), IMAGE_BOX, MEDIA));

    // The findings list: choosing the finding highlights its frame and says what fixing does.
    const button = `section.task .findings-list button[data-finding="${n}"]`;
    expect(await textOf(page, button)).toContain(report.findings[n - 1].message);
    await page.click(button);
    await until(`document.querySelector(${JSON.stringify(button)}).getAttribute('aria-pressed') === 'true'`);
    expect(await page.evaluate("document.querySelectorAll('section.task .inspector .mark-selected').length")).toBe(1);
    expect(await (await element(page, frame)).evaluate((el) => el.className)).toContain('mark-selected');
    expect(await textOf(page, 'section.task .finding-detail')).toMatch(/No automatic fix resolves this/);
    await screenshot('03-job-page');
    expect(await violations()).toEqual([]);
  }, 150_000);

  it('lists the job on the jobs page, found by its order id', async () => {
    await page.click('header a[href="#/"]');
    await heading('Jobs');
    await page.type('#filter-orderId', ORDER);
    await page.click('form.filters button[type="submit"]');
    await until(`[...document.querySelectorAll('table.jobs tbody tr')].map((tr) => tr.getAttribute('data-job-id')).join() === ${JSON.stringify(jobId)}`);
    expect(await textOf(page, 'table.jobs tbody tr td:nth-child(2)')).toBe(XSS_NAME);
    expect(await textOf(page, 'table.jobs tbody tr')).toContain('done');
    await screenshot('04-jobs-filtered');
    expect(await violations()).toEqual([]);
  });

  it('ran no script from the file name and drew it as text', async () => {
    expect(dialogs).toEqual([]);
    expect(await page.evaluate("document.querySelectorAll('img[src=\"x\"]').length")).toBe(0);
  });

  it('has an accessibility check that sees a planted violation in Firefox too (so its empty lists above mean something)', async () => {
    await page.evaluate("document.getElementById('main').insertAdjacentHTML('beforeend', '<input id=planted type=text>')");
    expect((await violations()).map((v) => v.id)).toContain('label');
    await page.evaluate("document.getElementById('planted').remove()");
  });

  it('forgets the key on sign out', async () => {
    await page.click('header button');
    await element(page, '#api-key');
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
  });
});
